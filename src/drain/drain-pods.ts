import type { V1Pod } from '@kubernetes/client-node';
import { budgetKey } from '../plan/budgets.js';
import type { BudgetExplainer } from './budget-explainer.js';
import type { Clock } from './clock.js';
import type { DrainRequest } from './drain-request.js';
import type { DrainEvent, PodDrainState, PodRef } from './events.js';
import {
  finalizersSeen,
  initialMachine,
  type PodMachine,
  type PodMachineConfig,
  type Transition,
} from './pod-machine.js';
import { podMachineConfig } from './removal-requests.js';
import type { DrainTarget } from './targets.js';

/** One pod of the drain: its target, its machine's configuration and the machine as it is now. */
export interface PodEntry {
  readonly target: DrainTarget;
  /** Replaced once, when the pod is escalated (delete instead of evict). */
  config: PodMachineConfig;
  machine: PodMachine;
}

/**
 * The drain's pods, by uid, each with its machine: every change of a pod's state is said in a `pod`
 * event, a budget wait with what holds the budget (budget-explainer.ts).
 */
export class DrainPods {
  private readonly entries = new Map<string, PodEntry>();

  /** `explainer`: the drain's, once it is built (it reads the pods too). */
  constructor(
    private readonly request: Pick<DrainRequest, 'targets' | 'dryRun' | 'gracePeriodSeconds'>,
    private readonly maxFailures: number,
    private readonly explainer: () => Pick<BudgetExplainer, 'explain' | 'explained'>,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly emit: (event: DrainEvent) => void,
  ) {
    for (const target of request.targets) this.add(target);
  }

  /** A pod the drain takes on: one of the plan's, or one found on a drained node since (late-pods.ts). */
  add(target: DrainTarget): PodEntry {
    const config = podMachineConfig(target, this.request.dryRun, this.request.gracePeriodSeconds, this.maxFailures);
    const entry = { target, config, machine: initialMachine().machine };
    this.entries.set(target.ref.uid, entry);
    return entry;
  }

  get(uid: string): PodEntry | undefined {
    return this.entries.get(uid);
  }

  all(): PodEntry[] {
    return [...this.entries.values()];
  }

  /** Every pod with its state now, for the summary and the explainer. */
  states(): Array<{ readonly target: DrainTarget; readonly state: PodDrainState }> {
    return this.all().map((entry) => ({ target: entry.target, state: entry.machine.state }));
  }

  /** Moves the pod's machine on and returns what the engine must do next. */
  apply(entry: PodEntry, transition: Transition): Transition['action'] {
    this.update(entry, transition.machine);
    return transition.action;
  }

  /** Replaces the pod's machine; a new state is said, a budget wait with what holds the budget. */
  update(entry: PodEntry, machine: PodMachine): void {
    const changed = machine.state !== entry.machine.state;
    entry.machine = machine;
    if (!changed) return;
    const explainer = this.explainer();
    if (machine.state.phase === 'waiting-for-budget')
      explainer.explain(budgetKey(entry.target.ref.namespace, machine.state.pdb));
    this.show(entry.target.ref, explainer.explained(entry.target, machine.state));
  }

  /** Applies a transition to every pod waiting for budget `key`. */
  forWaiters(key: string, transition: (machine: PodMachine) => PodMachine): void {
    for (const entry of this.entries.values()) {
      const state = entry.machine.state;
      if (state.phase === 'waiting-for-budget' && budgetKey(entry.target.ref.namespace, state.pdb) === key) {
        this.update(entry, transition(entry.machine));
      }
    }
  }

  /** A terminating pod's finalizers, as the watch or a GET reported them: what its disappearance waits on. */
  noteFinalizers(pod: V1Pod): void {
    const entry = this.entries.get(pod.metadata?.uid ?? '');
    if (!entry || !pod.metadata?.deletionTimestamp) return;
    this.update(entry, finalizersSeen(entry.machine, pod.metadata.finalizers ?? []));
  }

  show(pod: PodRef, state: PodDrainState): void {
    this.emit({ type: 'pod', atMs: this.clock.now(), pod, state });
  }
}
