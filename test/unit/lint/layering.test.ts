import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
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

/** The layers under src/, and what each may import (docs/architecture.md). cli/ may import every layer. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  kube: [],
  snapshot: ['kube'],
  plan: ['snapshot'],
  drain: ['kube', 'snapshot', 'plan'],
  run: ['kube', 'snapshot', 'plan', 'drain'],
  ui: ['snapshot', 'plan', 'drain', 'run'],
};
/** A module of each layer that a probe imports by type (type imports, so cli/'s start-up rule stays out of it). */
const PROBE_TARGET: Record<string, string> = {
  kube: "export type { DrainApi } from '../kube/drain-api.js';",
  snapshot: "export type { Snapshot } from '../snapshot/types.js';",
  plan: "export type { DrainPlan } from '../plan/types.js';",
  drain: "export type { DrainEvent } from '../drain/events.js';",
  run: "export type { RunEvent } from '../run/events.js';",
  ui: "export type { Tone } from '../ui/theme.js';",
  cli: "export type { ExitCode } from '../cli/exit-codes.js';",
};
const LAYERS = Object.keys(PROBE_TARGET);

describe('layering lint', () => {
  it('knows every folder of src/', () => {
    const folders = readdirSync(path.resolve(import.meta.dirname, '../../../src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...LAYERS].sort());
  });

  it.each(LAYERS)('src/%s/ opens with a README saying what it owns and may import', (layer) => {
    const readme = readFileSync(path.resolve(import.meta.dirname, `../../../src/${layer}/README.md`), 'utf8');
    expect(readme).toMatch(new RegExp(`^# ${layer}/ — `));
    expect(readme).toMatch(/^May import: /m);
  });

  const pairs = Object.entries(MAY_IMPORT).flatMap(([layer, allowed]) =>
    LAYERS.filter((other) => other !== layer).map((other) => [layer, other, allowed.includes(other)] as const),
  );

  it.each(pairs.filter(([, , allowed]) => !allowed))('%s/ may not import %s/', async (layer, other) => {
    expect(await messagesFor(`src/${layer}/probe.ts`, `${PROBE_TARGET[other]}\n`)).toEqual([
      expect.stringMatching(/is restricted from being used by a pattern/),
    ]);
  });

  it.each(pairs.filter(([, , allowed]) => allowed))('%s/ may import %s/', async (layer, other) => {
    expect(await messagesFor(`src/${layer}/probe.ts`, `${PROBE_TARGET[other]}\n`)).toEqual([]);
  });

  it('lets cli/ import every layer by type', async () => {
    const code = LAYERS.filter((layer) => layer !== 'cli').map((layer) => PROBE_TARGET[layer]);
    expect(await messagesFor('src/cli/probe.ts', `${code.join('\n')}\n`)).toEqual([]);
  });
});

describe('the base modules of src/', () => {
  it.each(LAYERS)('import nothing of %s/', async (layer) => {
    const code = PROBE_TARGET[layer]!.replace('../', './');
    expect(await messagesFor('src/probe.ts', `${code}\n`)).toEqual([
      expect.stringMatching(/is restricted from being used by a pattern/),
    ]);
  });

  it('import each other', async () => {
    expect(await messagesFor('src/probe.ts', "export { plural } from './wording.js';\n")).toEqual([]);
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
