import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering and purity rules of eslint.config.js, checked on probe sources linted as if they lived in
 * each layer: a rule that stops matching would let a layer break the architecture silently.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function messagesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).map((m) => m.message);
}

describe('layering lint', () => {
  it.each([
    ['src/kube/probe.ts', "export type { Snapshot } from '../snapshot/types.js';\n"],
    ['src/kube/probe.ts', "export type { DrainPlan } from '../plan/types.js';\n"],
    ['src/drain/probe.ts', "export { EXIT } from '../cli/exit-codes.js';\n"],
    ['src/drain/probe.ts', "export type { Theme } from '../ui/theme.js';\n"],
  ])('%s may not import %s', async (file, code) => {
    expect(await messagesFor(file, code)).toEqual([
      expect.stringMatching(/is restricted from being used by a pattern/),
    ]);
  });

  it('lets drain/ use kube/, plan/ and snapshot/', async () => {
    const code = [
      "export type { DrainPlan } from '../plan/types.js';",
      "export type { Snapshot } from '../snapshot/types.js';",
      "export { cordonNode } from '../kube/cordon.js';",
      '',
    ].join('\n');
    expect(await messagesFor('src/drain/probe.ts', code)).toEqual([]);
  });
});

describe('plan/ reads no clock and draws no random number', () => {
  it.each([
    'export const t = Date.now();',
    'export const t = new Date();',
    'export const t = Date();',
    'export const t = Math.random();',
    'export const t = performance.now();',
    'export const t = process.hrtime.bigint();',
    'setTimeout(() => undefined, 1);',
    'setImmediate(() => undefined);',
    'export const t = crypto.randomUUID();',
    "export { randomUUID } from 'node:crypto';",
    "export { setTimeout } from 'node:timers/promises';",
  ])('rejects %s', async (code) => {
    const messages = await messagesFor('src/plan/probe.ts', `${code}\n`);
    expect(messages).toEqual([expect.stringMatching(/plan\/ (is pure|reads no clock)/)]);
  });

  it('allows reading timestamps that the snapshot holds', async () => {
    const code = "export const t = Date.parse('2026-01-01T00:00:00Z') + new Date('2026-01-01').getTime();\n";
    expect(await messagesFor('src/plan/probe.ts', code)).toEqual([]);
  });
});
