import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** What a newcomer reads first, held true: the README's install steps against the project's own files. */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The lowest Node major each installed package accepts ("^20.19.0 || >=22" → 20; ">=22.12.0" → 22). */
function lowestMajor(range: string): number {
  return Math.min(...range.split('||').map((part) => Number(/(\d+)/.exec(part)?.[1] ?? 0)));
}

describe('the README for a newcomer', () => {
  it('puts kubectl-maint on PATH from a source checkout (npm link, or a link of your own)', () => {
    const fromSource = README.slice(README.indexOf('**From source**'), README.indexOf('## Try it'));
    expect(fromSource).toContain('npm ci && npm run build');
    expect(fromSource).toMatch(/^npm link\b/m);
    expect(fromSource).toContain('ln -s "$PWD/bin/kubectl-maint.js" ~/.local/bin/kubectl-maint');
  });

  it('states a Node.js minimum for a source checkout that npm ci accepts, or says what its warnings mean', () => {
    const stated = Number(/\*\*From source\*\* \(Node\.js ≥ (\d+)/.exec(README)?.[1]);
    expect(stated).toBeGreaterThanOrEqual(20);
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string }; dev?: boolean; optional?: boolean }>;
    };
    const needed = Math.max(
      ...Object.values(lock.packages).flatMap((p) =>
        p.engines?.node && !p.optional ? [lowestMajor(p.engines.node)] : [],
      ),
    );
    if (needed > stated) {
      const bullet = README.slice(
        README.indexOf('**From source**'),
        README.indexOf('```sh', README.indexOf('**From source**')),
      );
      expect(bullet).toContain('EBADENGINE');
    }
  });
});
