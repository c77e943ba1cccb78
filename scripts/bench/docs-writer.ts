/**
 * `npm run bench -- --write-docs`: each benchmark's figures written into docs/benchmarks.md between its
 * markers, `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, so the figures there are what the last run
 * printed, on the machine it ran on, never hand-edited. The prose around the markers says how to
 * reproduce them and what they mean.
 */
import { cpus, loadavg, totalmem } from 'node:os';

/** One benchmark's block: the command that reproduces it and what it printed (Markdown). */
export interface DocFigures {
  readonly name: string;
  readonly command: string;
  readonly body: string;
}

/** The machine a run measured on, and its load average when it started and when it ended. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kubernetes: string | null;
  readonly load: readonly [start: number, end: number];
}

const begin = (name: string) => `<!-- bench:${name} -->`;
const end = (name: string) => `<!-- /bench:${name} -->`;

/** The benchmarks whose markers the doc lacks (or has more than once): checked before a run, not after it. */
export function missingMarkers(doc: string, names: readonly string[]): string[] {
  const once = (marker: string) => doc.split(marker).length === 2;
  return names.filter((name) => !once(`${begin(name)}\n`) || !once(`\n${end(name)}`));
}

/** The doc with the block between NAME's markers replaced by `body` (the markers kept). */
export function replaceMarked(doc: string, name: string, body: string): string {
  if (missingMarkers(doc, [name]).length > 0) {
    throw new Error(`docs/benchmarks.md needs the markers ${begin(name)} and ${end(name)}, once each`);
  }
  const from = doc.indexOf(`${begin(name)}\n`) + begin(name).length + 1;
  const to = doc.indexOf(`\n${end(name)}`);
  if (to < from - 1) throw new Error(`${end(name)} comes before ${begin(name)} in docs/benchmarks.md`);
  return `${doc.slice(0, from)}${body.trimEnd()}${doc.slice(to)}`;
}

/** The machine this process runs on; the Kubernetes version of the lab, when the caller read it. */
export function thisMachine(kubernetes: string | null, loadAtStart: number): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kubernetes,
    load: [loadAtStart, loadavg()[0] ?? 0],
  };
}

/** The block written between a benchmark's markers: how it was run, where, and the figures it printed. */
export function figuresBlock(figures: DocFigures, machine: Machine): string {
  const lab = machine.kubernetes ? `, the lab at Kubernetes ${machine.kubernetes}` : '';
  const load = machine.load.map((l) => l.toFixed(1)).join(' → ');
  return [
    '| command | machine | load average (start → end) |',
    '|---|---|---|',
    `| \`${figures.command}\` | ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}${lab} | ${load} |`,
    '',
    figures.body.trimEnd(),
  ].join('\n');
}

/** Every block written into the doc; the doc unchanged for a benchmark that did not run. */
export function writeFigures(doc: string, written: readonly DocFigures[], machine: Machine): string {
  return written.reduce((text, figures) => replaceMarked(text, figures.name, figuresBlock(figures, machine)), doc);
}

/** Text a benchmark printed, as a fenced block (its columns kept). */
export const fenced = (text: string): string => ['```text', text.trimEnd(), '```'].join('\n');
