import { describe, expect, it } from 'vitest';
import type { TableBlock } from '../../../src/ui/plan-document.js';
import { layoutBlocks } from '../../../src/ui/plan-layout.js';
import { displayWidth } from '../../../src/ui/text-wrap.js';

/** The terminal column where `cell` starts on `text`. */
function columnOf(text: string, cell: string): number {
  return displayWidth(text.slice(0, text.indexOf(cell)));
}

describe('plan layout: tables by terminal columns', () => {
  // A CJK pod name takes two columns a character: its cells line up with the others only when padded by width.
  const table: TableBlock = {
    kind: 'table',
    header: ['POD', 'REASON'],
    rows: [
      ['数据库-0', 'no other node has room for its 4 CPU and 8Gi of memory request, so it waits'],
      ['web-123456', 'evicted first'],
    ],
    indent: 2,
  };

  it('lines up the last column after a wide-character cell when it wraps', () => {
    const lines = layoutBlocks([table], 50, 'text').map((l) => l.text);
    expect(lines.length).toBeGreaterThan(3);
    const header = lines[0]!;
    const wide = lines.find((l) => l.includes('数据库-0'))!;
    const narrow = lines.find((l) => l.includes('web-123456'))!;
    expect(columnOf(wide, 'no other')).toBe(columnOf(header, 'REASON'));
    expect(columnOf(narrow, 'evicted')).toBe(columnOf(header, 'REASON'));
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(50);
  });

  it('wraps a row whose wide characters do not fit, though its UTF-16 units would', () => {
    const short: TableBlock = { ...table, rows: [['数据库-0', '全部节点都满了全部节点都满了全部节点满']] };
    // 2 + 8 + 3 + 38 columns: 51, one more than the width, though only 32 UTF-16 units.
    const lines = layoutBlocks([short], 50, 'text').map((l) => l.text);
    expect(lines.length).toBe(3);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(50);
  });

  it('stacks a row too wide for its table and packs its labelled cells by terminal columns', () => {
    const stacked: TableBlock = {
      kind: 'table',
      header: ['POD', 'BUDGET', 'REASON'],
      rows: [['web-0', '数据库数据库', '全部节点都满了']],
      indent: 2,
    };
    // "budget: 数据库数据库 · reason: 全部节点都满了" under a 4-space indent: 47 columns, though 35 UTF-16 units.
    const lines = layoutBlocks([stacked], 36, 'text').map((l) => l.text);
    expect(lines).toEqual(['  web-0', '    budget: 数据库数据库', '    reason: 全部节点都满了']);
  });
});
