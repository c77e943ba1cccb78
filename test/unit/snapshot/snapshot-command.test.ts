import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND_PATHS } from '../../../src/kube/kinds.js';
import { SNAPSHOT_COMMAND, SNAPSHOT_RESOURCES } from '../../../src/snapshot/snapshot-command.js';
import { SNAPSHOT_KINDS } from '../../../src/snapshot/types.js';

describe('the snapshot command quoted in errors and docs', () => {
  it('asks for every kind a snapshot can hold, in their order, HorizontalPodAutoscalers (--surge) and the admission chain included', () => {
    expect(SNAPSHOT_RESOURCES).toEqual(SNAPSHOT_KINDS.map((kind) => KIND_PATHS[kind].split('/').at(-1)));
    expect(SNAPSHOT_COMMAND).toContain(',horizontalpodautoscalers,');
    expect(SNAPSHOT_COMMAND).toContain(',validatingadmissionpolicies,validatingadmissionpolicybindings,');
  });

  it('is the command docs/planning.md tells the user to run', () => {
    const docs = readFileSync(path.join(import.meta.dirname, '../../../docs/planning.md'), 'utf8');
    const shown = docs.split('\n').filter((line) => line.startsWith('kubectl get ') && line.includes(' -A -o json'));
    expect(shown.map((line) => line.replace(/ > \S+$/, ''))).toEqual([SNAPSHOT_COMMAND]);
  });
});
