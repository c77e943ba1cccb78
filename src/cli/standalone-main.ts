import { runPlainCordon } from './plain-cordon.js';

// The CLI of the commands that stand alone and are short (cordon, uncordon, version), bundled apart from
// the rest (scripts/release/bundle.ts): their start-up, measured against kubectl's, is mostly Node's own
// and loading code, so their code is a few files instead of the twenty chunks the whole CLI splits into
// at its lazy imports. A plain cordon or uncordon does not even load commander (plain-cordon.ts).

/** Runs `kubectl maint COMMAND …` for a standalone COMMAND (argv[0]); the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const plain = await runPlainCordon(argv);
  if (plain !== undefined) return plain;
  const { runStandaloneProgram } = await import('./standalone-program.js');
  return runStandaloneProgram(argv);
}
