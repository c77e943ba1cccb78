import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_COMMAND } from '../../../src/snapshot/snapshot-command.js';
import { SNAPSHOT_KINDS } from '../../../src/snapshot/types.js';

/** `kubectl get`'s resource name of a kind: lower case, plural as the API server names it. */
const resourceOf = (kind: string) => {
  const lower = kind.toLowerCase();
  return lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : lower.endsWith('s') ? `${lower}es` : `${lower}s`;
};

const resourcesIn = (command: string) => /^kubectl get (\S+) -A -o json$/.exec(command)?.[1]?.split(',');

describe('the snapshot command quoted in errors and docs', () => {
  it('asks for every kind a snapshot can hold, in their order, HorizontalPodAutoscalers (--surge) included', () => {
    expect(resourcesIn(SNAPSHOT_COMMAND)).toEqual(SNAPSHOT_KINDS.map(resourceOf));
    expect(resourcesIn(SNAPSHOT_COMMAND)).toContain('horizontalpodautoscalers');
  });

  it('is the command docs/planning.md tells the user to run', () => {
    const docs = readFileSync(path.join(import.meta.dirname, '../../../docs/planning.md'), 'utf8');
    const shown = docs.split('\n').filter((line) => line.startsWith('kubectl get ') && line.includes(' -A -o json'));
    expect(shown.map((line) => line.replace(/ > \S+$/, ''))).toEqual([SNAPSHOT_COMMAND]);
  });
});
