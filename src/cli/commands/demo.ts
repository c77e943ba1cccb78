import { Option, type Command } from 'commander';
import type { EmbeddedSnapshotName } from '../../snapshot/embedded.js';
import { DEFAULT_MAINTENANCE_TAINT_KEY } from '../../plan/defaults.js';
import type { DrainOptions } from '../../plan/types.js';
import { showPlan, writeDocument, writeOut, type OutputFormat } from '../output.js';
import { terminalWidth } from '../terminal.js';

const DEMO_NODE = 'k8s-node-1';

/** The flags the demo plans with: `kubectl maint plan k8s-node-1 --ignore-daemonsets`, as one would drain a worker. */
const DEMO_FLAGS: DrainOptions = {
  ignoreDaemonSets: true,
  deleteEmptyDirData: false,
  force: false,
  disableEviction: false,
  skipWaitForDeleteTimeoutSeconds: 0,
  taint: { key: DEFAULT_MAINTENANCE_TAINT_KEY },
  nodeMonitorGracePeriodSeconds: 50,
};

/** What each bundled example shows, printed above its plan. */
const STORIES: Readonly<Record<EmbeddedSnapshotName, string>> = {
  hello:
    'Deployment demo/hello, 4 replicas spread over two workers (maxSkew 1, nodeTaintsPolicy: Honor), PodDisruptionBudget maxUnavailable 1.',
  'hello-blocked':
    'The same Deployment without nodeTaintsPolicy (default Ignore): the tainted control-plane node and the cordoned node still count as spread domains.',
};

export function register(program: Command): void {
  program
    .command('demo')
    .summary('plan a drain of the bundled example clusters (no cluster needed)')
    .description(
      `Runs \`kubectl maint plan ${DEMO_NODE} --ignore-daemonsets\` against two snapshots bundled with the plugin, ` +
        "taken from the project's lab: one where the drain is slow but finishes, one where pod topology spread blocks it.",
    )
    .addOption(
      new Option('-o, --output <format>', 'output format (default: a live view on a terminal, text otherwise)').choices(
        ['text', 'json', 'yaml'],
      ),
    )
    .option('--no-tui', 'print text even on a terminal, instead of the full-screen view')
    .action(async (values: { output?: OutputFormat; tui?: boolean }) => {
      // The bundled snapshots (270 kB of JSON) are loaded only by the demo, not at every start.
      const { EMBEDDED_SNAPSHOT_NAMES, loadEmbeddedSnapshot } = await import('../../snapshot/embedded.js');
      const { UNLIMITED_WIDTH, wrapText } = await import('../../ui/text-wrap.js');
      const { planSnapshot } = await import('../plan-input.js');
      for (const [i, name] of EMBEDDED_SNAPSHOT_NAMES.entries()) {
        // A heading for people; for -o json|yaml, only document separators so the stream stays parseable.
        if (values.output === 'yaml') writeDocument('---\n');
        else if (values.output !== 'json') {
          const heading = `Example ${i + 1} of ${EMBEDDED_SNAPSHOT_NAMES.length} (snapshot "${name}"): ${STORIES[name]}`;
          const wrapped = wrapText(heading, terminalWidth(process.stdout) ?? UNLIMITED_WIDTH).join('\n');
          writeOut(`${i > 0 ? '\n' : ''}${wrapped}\n$ kubectl maint plan ${DEMO_NODE} --ignore-daemonsets\n\n`);
        }
        const plan = planSnapshot(loadEmbeddedSnapshot(name), { names: [DEMO_NODE] }, DEMO_FLAGS);
        // The full-screen view covers the heading: it says itself which example it shows, and what q does.
        const last = i === EMBEDDED_SNAPSHOT_NAMES.length - 1;
        await showPlan(plan, values.output, {
          noTui: values.tui === false,
          title: `Example ${i + 1} of ${EMBEDDED_SNAPSHOT_NAMES.length} (snapshot "${name}"): ${STORIES[name]}`,
          quitHint: last ? 'q quit' : `q next: example ${i + 2} of ${EMBEDDED_SNAPSHOT_NAMES.length}`,
        });
      }
    });
}
