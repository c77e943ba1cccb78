import { Box, Text } from 'ink';
import type { DrainCounts } from '../drain-live-state.js';
import { formatClock, formatSeconds } from '../format.js';
import { ProgressBar } from './ProgressBar.js';
import { Tone } from './Tone.js';

export interface DrainHeaderProps {
  nodes: readonly string[];
  dryRun: 'none' | 'client' | 'server';
  elapsedMs: number;
  wavesLeft: number;
  /** Why the drain cannot go on by itself, once known (then no waves estimate is shown). */
  blockedBy?: string | null;
  counts: DrainCounts;
  /** The one estimate (drain/time-left.ts), counting down, negative once past; null or absent without one. */
  secondsLeft?: number | null;
  /** The estimate cannot count some pods' time (an operator's webhook holds them): it is at least that. */
  atLeast?: boolean;
  /** The next pod --escalate-after deletes: when, on the elapsed clock, and how soon. */
  escalation?: { readonly pod: string; readonly atElapsedMs: number; readonly inMs: number } | null;
}

/**
 * Draining k8s-node-1 · 0:42 · about 40s left
 * [██████░░░░░░] 4/8 · 1 waiting for a budget · 1 terminating · 2 queued
 * --escalate-after deletes demo/hello-b at 0:57 (in 15s)
 *
 * One estimate: the time left when the plan gave one, else the waves left.
 */
export function DrainHeader({
  nodes,
  dryRun,
  elapsedMs,
  wavesLeft,
  blockedBy = null,
  counts,
  secondsLeft,
  atLeast = false,
  escalation = null,
}: DrainHeaderProps) {
  const busy = [
    counts.evicting > 0 && `${counts.evicting} evicting`,
    counts.waiting > 0 && `${counts.waiting} waiting for a budget`,
    counts.terminating > 0 && `${counts.terminating} terminating`,
    counts.queued > 0 && `${counts.queued} queued`,
    counts.failed > 0 && `${counts.failed} failed`,
  ].filter((s): s is string => typeof s === 'string');
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Draining {nodes.join(', ')}</Text>
        {dryRun !== 'none' && <Tone tone="warn"> ({dryRun} dry run)</Tone>}
        <Tone tone="muted">
          {' · '}
          {formatClock(elapsedMs)}
          {secondsLeft == null
            ? wavesLeft > 0 && ` · about ${wavesLeft} ${wavesLeft === 1 ? 'wave' : 'waves'} left`
            : ` · ${timeLeftText(secondsLeft, atLeast)}`}
        </Tone>
        {blockedBy && <Tone tone="bad"> · blocked: {blockedBy}</Tone>}
      </Text>
      <Text>
        <ProgressBar done={counts.done} total={counts.total} />
        {busy.length > 0 && <Tone tone="muted"> · {busy.join(' · ')}</Tone>}
      </Text>
      {escalation && (
        <Tone tone="warn">
          --escalate-after deletes {escalation.pod} at {formatClock(escalation.atElapsedMs)}
          {escalation.inMs >= 1000 ? ` (in ${formatSeconds(escalation.inMs / 1000)})` : ' (now)'}
        </Tone>
      )}
    </Box>
  );
}

/** "about 40s left" ("at least 40s left" when some pods' time is not counted); once past, by how much. */
function timeLeftText(secondsLeft: number, atLeast: boolean): string {
  const about = atLeast ? 'at least' : 'about';
  if (secondsLeft >= 1) return `${about} ${formatSeconds(secondsLeft)} left`;
  return secondsLeft <= -1 ? `past the estimate by ${formatSeconds(-secondsLeft)}` : `${about} 0s left`;
}
