import { renderToString } from 'ink';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { ColumnsContext } from '../../../../src/ui/columns-context.js';
import { HangingLine } from '../../../../src/ui/components/HangingLine.js';

const at = (columns: number, line: ReactElement) =>
  renderToString(<ColumnsContext.Provider value={columns}>{line}</ColumnsContext.Provider>, { columns }).split('\n');

describe('<HangingLine /> (the run log and its summary above the live view)', () => {
  it.each([60, 80, 120])('at %i columns: under the first word, never wider, no word cut', (columns) => {
    const text = 'interrupted: nothing new starts; waiting for the command on pool-2 to finish (Ctrl-C again kills it)';
    const lines = at(columns, <HangingLine prefix=" 0:10 " prefixWidth={6} text={text} />);
    expect(lines[0]).toMatch(/^ 0:10 interrupted: /);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {6}\S/);
    expect(lines.map((l) => l.slice(6)).join(' ')).toBe(text);
  });

  it("keeps an indented line's indent and hangs its continuation two columns further in", () => {
    const text =
      '   installed linux-image-6.12.0-31 package post-installation script subprocess returned error exit status 1';
    const lines = at(60, <HangingLine prefixWidth={0} text={text} />);
    expect(lines[0]).toMatch(/^ {3}installed /);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {5}\S/);
  });
});
