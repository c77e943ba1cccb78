import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DrainEvent } from '../../../src/drain/events.js';
import type { DrainPlan } from '../../../src/plan/types.js';
import {
  initialDrainProgress,
  reduceDrainEvents,
  secondsLeftAt,
  waveHintsFromPlan,
} from '../../../src/ui/drain-live-state.js';

// A drain recorded on the lab (`kubectl maint drain k8s-node-1 --ignore-daemonsets --pod-selector app=eta
// -o json`): three replicas under a maxUnavailable 1 budget whose replacements are Ready 5 s after they
// start, so three waves, the plan's estimate 12 s; the drain took 11.7 s. Its plan (-o json) was taken
// just before it. The live estimate is the plan's, followed: at every event it says the end the plan says
// (its first eviction + the plan's total), give or take what the drain did differently from the plan.

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const plan = JSON.parse(fixture('eta-5s-plan.json')) as DrainPlan;
const recorded = fixture('eta-5s-drain.jsonl')
  .split('\n')
  .filter((line) => line.startsWith('{'))
  .map((line) => JSON.parse(line) as DrainEvent);

/** When the API admitted each pod, in the recording: its first state past the eviction request. */
const WAITING = new Set(['queued', 'evicting', 'retrying', 'waiting-for-budget']);
function admissionOrder(events: readonly DrainEvent[]): string[] {
  const order: string[] = [];
  for (const e of events) {
    if (e.type === 'pod' && !WAITING.has(e.state.phase) && !order.includes(e.pod.uid)) order.push(e.pod.uid);
  }
  return order;
}

/**
 * The same drain had the API admitted the pods in the plan's order (the plan's wave-1 pod first): the pods
 * of one budget are interchangeable, and the API admits whichever eviction comes when the budget allows.
 */
function inPlanOrder(events: readonly DrainEvent[]): DrainEvent[] {
  const byWave = plan.pods
    .filter((p) => p.wave !== null)
    .sort((a, b) => a.wave! - b.wave!)
    .map((p) => p.uid);
  const rename = new Map(admissionOrder(events).map((uid, i) => [uid, byWave[i]!]));
  const names = new Map(plan.pods.map((p) => [p.uid, p.name]));
  const text = JSON.stringify(events).replace(/"uid":"([^"]+)"/g, (whole, uid: string) =>
    rename.has(uid) ? `"uid":"${rename.get(uid)}"` : whole,
  );
  // Names follow the uids, so that every event names the pod it is about.
  return (JSON.parse(text) as DrainEvent[]).map((e) =>
    e.type === 'pod' ? { ...e, pod: { ...e.pod, name: names.get(e.pod.uid) ?? e.pod.name } } : e,
  );
}

describe.each([
  { order: "as recorded (the plan's wave-3 pod admitted first)", events: recorded },
  { order: "in the plan's order", events: inPlanOrder(recorded) },
])('the live time left over a recorded drain, pods admitted $order', ({ events }) => {
  const hints = waveHintsFromPlan(plan);
  const firstEviction = Math.min(
    ...events.flatMap((e) => (e.type === 'pod' && e.state.phase === 'evicting' ? [e.atMs] : [])),
  );
  const finished = events.find((e) => e.type === 'finished');
  const planEnd = firstEviction + (plan.eta?.totalSeconds ?? Number.NaN) * 1000;

  it('is the recording the test says it is: three waves, 12 s planned, finished within the estimate', () => {
    expect(plan.eta?.waves.map((w) => w.startsAfterSeconds)).toEqual([0, 5, 10]);
    expect(plan.eta?.totalSeconds).toBe(12);
    expect(finished?.atMs).toBeLessThanOrEqual(planEnd);
  });

  it('at each event, ends where the plan ends (within the drift of the waves admitted), never past the estimate', () => {
    let progress = initialDrainProgress();
    const steps: Array<{ atS: number; leftS: number; planLeftS: number }> = [];
    for (const event of events) {
      progress = reduceDrainEvents(progress, event, { hints });
      const left = secondsLeftAt(progress, event.atMs);
      if (left === null) continue;
      steps.push({
        atS: (event.atMs - firstEviction) / 1000,
        leftS: left,
        planLeftS: (planEnd - event.atMs) / 1000,
      });
    }
    expect(steps.length).toBeGreaterThan(5);
    for (const step of steps) {
      // Within 1.5 s of the plan's own count: the waves here were admitted within a second of the plan's times.
      expect(Math.abs(step.leftS - step.planLeftS), JSON.stringify(step)).toBeLessThanOrEqual(1.5);
      // A drain that finishes within the estimate never reads "past the estimate".
      expect(step.leftS, JSON.stringify(step)).toBeGreaterThan(0);
    }
  });
});
