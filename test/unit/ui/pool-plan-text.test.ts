import { describe, expect, it } from 'vitest';
import { renderPoolPlanText } from '../../../src/ui/pool-plan-text.js';
import { displayWidth } from '../../../src/ui/text-wrap.js';
import { labPoolPlan } from './lab-pool-plan.js';

const words = (text: string) => text.split(/\s+/).filter((w) => w.length > 0);

describe('renderPoolPlanText', () => {
  it('on a terminal wraps every line to its width, between words, losing none', async () => {
    const plan = await labPoolPlan();
    const unlimited = renderPoolPlanText(plan);
    expect(unlimited.split('\n').some((l) => l.length > 120)).toBe(true);
    for (const width of [60, 80, 120]) {
      const text = renderPoolPlanText(plan, { width });
      const lines = text.split('\n');
      expect(
        lines.filter((l) => displayWidth(l) > width),
        String(width),
      ).toEqual([]);
      // Words are whole: every word of the unwrapped text is still there, in order (a table's cells may
      // be stacked under their header's name, which adds words, never cuts one).
      const wrapped = words(text);
      let at = 0;
      for (const word of words(unlimited).filter((w) => !/^[A-Z/]+$/.test(w))) {
        at = wrapped.indexOf(word, at);
        expect(at, `${width}: ${word}`).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("a slow batch's reason counts the waves its row counts", async () => {
    for (const max of [2, 3]) {
      const plan = await labPoolPlan(max);
      const text = renderPoolPlanText(plan);
      const rows = new Map(
        text
          .split('\n')
          .map((l) => /^ {2}(\d+) .*?\s(?:slow|clear)\s+\d+\s+(\d+)\s/.exec(l))
          .flatMap((m) => (m ? [[m[1]!, Number(m[2])] as const] : [])),
      );
      const said = [...text.matchAll(/^ {2}- batch (\d+) \(.*?\) is slow: .*?: (\d+) waves/gm)];
      expect(said.length, String(max)).toBeGreaterThan(0);
      for (const [, batch, waves] of said) expect(Number(waves), `${max}: batch ${batch}`).toBe(rows.get(batch!));
    }
  });

  it('says each caveat once, naming the batches it concerns', async () => {
    const plan = await labPoolPlan(3);
    const rules = plan.caveats.map((c) => c.replace(/ \((?:every batch|batch(?:es)? [\d, ]+)\)$/, ''));
    expect(new Set(rules).size).toBe(rules.length);
    const readiness = plan.caveats.filter((c) => c.startsWith('Readiness:'));
    expect(readiness).toEqual([expect.stringMatching(/\(batches 2, 4\)$/)]);
    expect(plan.caveats).toContainEqual(
      expect.stringMatching(/^NoExecute and node-failure timelines .*\(every batch\)$/),
    );
  });

  it('says why a batch has fewer nodes than allowed', async () => {
    const plan = await labPoolPlan(3);
    const small = plan.batches.filter((b) => b.nodes.length < 3);
    expect(small.length).toBeGreaterThan(0);
    const text = renderPoolPlanText(plan);
    for (const b of small) {
      expect(b.smaller, String(b.number)).toBeDefined();
      expect(text).toContain(`fewer nodes than allowed: ${b.smaller}`);
    }
  });

  it('as the preface of a run: verdict, batches and estimate, then where the rest is', async () => {
    const plan = await labPoolPlan();
    const text = renderPoolPlanText(plan, { width: 80, briefFor: 'kubectl maint plan -l pool=blue' });
    expect(text.split('\n')[0]).toMatch(/^(CLEAR|SLOW|BLOCKED): 6 nodes in 3 batches of at most 2/);
    expect(text).toMatch(/^Batches$/m);
    expect(text).toMatch(/^Estimate: /m);
    expect(text).not.toMatch(/^Batch 1:/m);
    expect(text).not.toMatch(/^Caveats$/m);
    expect(text).toMatch(/^Each batch's reasons and \d+ caveats?: kubectl maint plan -l pool=blue$/m);
  });
});
