import { Option, type Command } from 'commander';
import type * as Yaml from 'yaml';
import { buildInfo, runtimeInfo, type BuildInfo, type RuntimeInfo } from '../../version.js';

/** The `-o json|yaml` contract of `kubectl maint version`: fields may be added, never renamed or removed. */
export interface VersionReport extends BuildInfo, RuntimeInfo {
  readonly kind: 'Version';
  readonly apiVersion: 'maint.kubectl.io/v1alpha1';
}

export type VersionFormat = 'text' | 'json' | 'yaml';

export function register(program: Command): void {
  program
    .command('version')
    .description('Print the version of kubectl maint, the commit and date it was built from, and its runtime')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['json', 'yaml']))
    .action(async (opts: { output?: 'json' | 'yaml' }) => {
      process.stdout.write(await formatVersion(versionReport(), opts.output ?? 'text'));
    });
}

export function versionReport(): VersionReport {
  return { kind: 'Version', apiVersion: 'maint.kubectl.io/v1alpha1', ...buildInfo(), ...runtimeInfo() };
}

export async function formatVersion(report: VersionReport, format: VersionFormat): Promise<string> {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  // The YAML library is loaded only for -o yaml: `version` is what start-up is measured by.
  if (format === 'yaml') {
    // yaml is CommonJS: Node's import gives its named exports, a bundle's split chunk only `default`.
    const yaml = (await import('yaml')) as typeof Yaml & { default?: typeof Yaml };
    return (typeof yaml.stringify === 'function' ? yaml : yaml.default!).stringify(report, { indent: 2 });
  }
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
