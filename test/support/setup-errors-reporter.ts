import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * A vitest reporter for CI's closing lines: the errors vitest's JSON report leaves out. A setup hook
 * that throws (a seed that did not settle, say) fails its suite, not a test, and an error thrown outside
 * any test fails the run; the JSON report names neither. Written as JSON lines ({ file, where, message })
 * to $SETUP_ERRORS_FILE; without it the reporter does nothing.
 */
export default class SetupErrorsReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[], unhandled: readonly SerializedError[]): void {
    const out = process.env.SETUP_ERRORS_FILE;
    if (!out) return;
    const lines: string[] = [];
    const add = (file: string, where: string, error: SerializedError) =>
      lines.push(JSON.stringify({ file, where, message: error.message ?? String(error) }));
    for (const module of modules) {
      for (const error of module.errors()) add(module.moduleId, '', error);
      for (const suite of module.children.allSuites()) {
        for (const error of suite.errors()) add(module.moduleId, suite.fullName, error);
      }
    }
    for (const error of unhandled) add('', 'outside any test', error);
    writeFileSync(out, lines.map((line) => `${line}\n`).join(''));
  }
}
