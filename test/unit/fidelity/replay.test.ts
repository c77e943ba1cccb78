import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord, replayCluster, snapshotFile } from '../../../scripts/fidelity/replay.js';
import { cliBundlePath, scratchDir } from '../cli/cli-from-source.js';

// `npm run fidelity -- --replay DIR`: a run's record of a cluster judged again, planned from its snapshot by
// the CLI as built from these sources. The fixture is what `npm run fidelity -- --count 1 --seed 3
// --verbose` recorded: replayed by the plan that made it, it must be judged as the run judged it.

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/fidelity/replay');
const cli = async () => [process.execPath, await cliBundlePath()];

describe('fidelity replay', () => {
  it('judges a recorded cluster as the run did: the same facts, the same ones left unjudged', async () => {
    const recorded = readRecord(fixtures, 3);
    const replayed = await replayCluster(recorded, snapshotFile(fixtures, 3), await cli());
    expect(replayed.error).toBeUndefined();
    expect(replayed.facts.length).toBeGreaterThan(0);
    expect(replayed.facts).toEqual(recorded.facts);
    expect(replayed.notJudged).toEqual(recorded.notJudged);
    expect(replayed.verdict).toBe(recorded.verdict);
  });

  it('judges the webhooks the API server called, where the run recorded them', async () => {
    const dir = scratchDir();
    mkdirSync(dir, { recursive: true });
    const record = { ...readRecord(fixtures, 3), seed: 9, webhookCalls: { 'db-2-1': ['guard.fidelity.example.com'] } };
    writeFileSync(path.join(dir, 'seed-9.json'), JSON.stringify(record));
    const replayed = await replayCluster(readRecord(dir, 9), snapshotFile(fixtures, 3), await cli());
    // The snapshot has no webhook: the plan names none, where the record says one was called.
    expect(replayed.facts.filter((f) => f.fact === 'webhooks')).toEqual([
      { subject: 'db-2-1', fact: 'webhooks', plan: 'none', cluster: 'guard.fidelity.example.com', agree: false },
    ]);
  });

  it('a cluster that did not settle, or whose run ended in an error, comes back as recorded', async () => {
    const dir = scratchDir();
    mkdirSync(dir, { recursive: true });
    const unsettled = { seed: 7, settled: false, facts: [], notJudged: [], error: 'pods still Pending', seconds: 45 };
    const failed = { ...readRecord(fixtures, 3), seed: 8, error: 'the replacements did not settle: web-2-x' };
    for (const record of [unsettled, failed])
      writeFileSync(path.join(dir, `seed-${record.seed}.json`), JSON.stringify(record));
    for (const record of [unsettled, failed])
      expect(await replayCluster(readRecord(dir, record.seed), snapshotFile(dir, record.seed), await cli())).toEqual(
        record,
      );
  });
});
