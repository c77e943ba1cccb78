import type { DrainEvent, PodRef } from './events.js';
import type { PodMachineConfig } from './pod-machine.js';

/** --escalate-after / --escalate-namespace, as the drain request carries them. */
export interface EscalationRequest {
  readonly afterMs: number;
  readonly namespaces: readonly string[];
}

/** What the deadline of one pod depends on. */
export interface EscalationCandidate {
  readonly namespace: string;
  /** 'delete' once the pod is escalated (or with --disable-eviction): it is never escalated again. */
  readonly method: PodMachineConfig['method'];
  /** When its budget first refused it; null before any refusal. */
  readonly waitingSinceMs: number | null;
}

/**
 * How long until the pod is escalated (deleted instead of evicted): null when it never is (no
 * --escalate-after, not an eviction, not refused yet, or its namespace was not named), 0 when due. Counted
 * from the budget's first refusal.
 */
export function msUntilEscalation(
  escalation: EscalationRequest | undefined,
  pod: EscalationCandidate,
  nowMs: number,
): number | null {
  if (!escalation || pod.method !== 'evict' || pod.waitingSinceMs === null) return null;
  if (!escalation.namespaces.includes(pod.namespace)) return null;
  return Math.max(0, pod.waitingSinceMs + escalation.afterMs - nowMs);
}

/** How long a pod waits for its budget before asking again: the budget's fallback, or less if its escalation falls due first. */
export function budgetWaitMs(fallbackMs: number, untilEscalation: number | null): number {
  return untilEscalation === null ? fallbackMs : Math.min(fallbackMs, untilEscalation);
}

/** The pod's configuration from its escalation on: deleted (its grace period kept), and said to be escalated. */
export function escalatedConfig(config: PodMachineConfig): PodMachineConfig {
  return { ...config, method: 'delete', escalated: true };
}

/** The event that says a pod is escalated, with how long its budget refused it. */
export function escalatingEvent(
  pod: PodRef,
  pdb: string,
  waitingSinceMs: number | null,
  nowMs: number,
): Extract<DrainEvent, { type: 'escalating' }> {
  return { type: 'escalating', atMs: nowMs, pod, pdb, refusedForMs: nowMs - (waitingSinceMs ?? nowMs) };
}
