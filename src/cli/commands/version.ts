import { Option, type Command } from 'commander';
import { buildInfo, runtimeInfo, type BuildInfo, type RuntimeInfo } from '../../version.js';
import { showDocument } from '../output.js';

/** The `-o json|yaml` contract of `kubectl maint version`: fields may be added, never renamed or removed. */
export interface VersionReport extends BuildInfo, RuntimeInfo {
  readonly kind: 'Version';
  readonly apiVersion: 'maint.kubectl.io/v1alpha1';
}

export function register(program: Command): void {
  program
    .command('version')
    .description('Print the version of kubectl maint, the commit and date it was built from, and its runtime')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['json', 'yaml']))
    .action(async (opts: { output?: 'json' | 'yaml' }) => {
      const report = versionReport();
      // The renderers of -o json|yaml are loaded only then: `version` is what start-up is measured by.
      await showDocument(report, opts.output, { text: async () => versionText(report) });
    });
}

export function versionReport(): VersionReport {
  return { kind: 'Version', apiVersion: 'maint.kubectl.io/v1alpha1', ...buildInfo(), ...runtimeInfo() };
}

/** The report as `version` prints it without -o: each field on its line. */
export function versionText(report: VersionReport): string {
  const runtime = `Node.js ${report.node}${report.singleExecutable ? ', single executable' : ''}`;
  const rows: [string, string][] = [
    ['Version', report.version],
    ['Build', report.build === 'dev' ? 'dev (running from source)' : 'release'],
    ...(report.commit === null ? [] : [['Commit', report.commit] as [string, string]]),
    ...(report.buildDate === null ? [] : [['Built', report.buildDate] as [string, string]]),
    ['Runtime', runtime],
    ['Platform', report.platform],
  ];
  return rows.map(([key, value]) => `${`${key}:`.padEnd(10)}${value}\n`).join('');
}
