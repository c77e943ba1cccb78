import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every result and every line a command says goes through src/cli/output.ts, which makes text for a person
 * terminal-safe: a write to stdout, stderr or the console anywhere else in src/ could print the cluster's
 * words with their control sequences.
 */
const SRC = path.resolve(import.meta.dirname, '../../../src');

/** The sink, and the views that draw on the terminal themselves, each with what it writes. */
const ALLOWED: Record<string, string> = {
  'cli/output.ts': 'the sink',
  'ui/live-view.ts': "the sequences that erase Ink's frame on a resize",
  'ui/plan-view.tsx': "the full-screen view's last lines, made terminal-safe there",
};

const DIRECT_WRITE = [
  /\bstd(?:out|err)\s*\.\s*write\s*\(/,
  /\bconsole\s*\.\s*(?:log|error|warn|info|debug|trace|dir|table)\s*\(/,
  /\bprocess\s*\.\s*std(?:out|err)\s*\)\s*\.\s*write\s*\(/,
  /\bwriteSync\s*\(\s*[12]\s*,/,
];

/** `file:line: text` for each direct write in a source text. */
function directWrites(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    if (/^\s*(?:\/\/|\*|\/\*)/.test(line)) return [];
    return DIRECT_WRITE.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [];
  });
}

describe('one output sink', () => {
  it('finds the kinds of direct write it forbids', () => {
    const probe = [
      "process.stdout.write('x');",
      'process.stderr.write(text);',
      'console.log(x);',
      "(ok ? process.stdout : process.stderr).write('x');",
      "writeSync(1, 'x');",
      '// process.stdout.write in a comment is fine',
      "writeOut('x');",
    ].join('\n');
    expect(directWrites('probe.ts', probe)).toHaveLength(5);
  });

  it('no file of src/ but the sink writes to stdout, stderr or the console', () => {
    const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(50);
    const found = files
      .map((f) => f.split(path.sep).join('/'))
      .filter((f) => !(f in ALLOWED))
      .flatMap((f) => directWrites(f, readFileSync(path.join(SRC, f), 'utf8')));
    expect(found).toEqual([]);
  });
});
