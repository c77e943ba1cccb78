import { Box, Text } from 'ink';
import type { DrainCounts } from '../drain-progress.js';
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
  /** From the plan's estimate, counting down; null or absent without one. */
  secondsLeft?: number | null;
}

/**
 * Draining k8s-node-1 · 0:42 · about 2 waves left · about 40s left
 * [██████░░░░░░] 4/8 · 1 waiting for a budget · 1 terminating · 2 queued
 */
export function DrainHeader({
  nodes,
  dryRun,
  elapsedMs,
  wavesLeft,
  blockedBy = null,
  counts,
  secondsLeft,
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
          {wavesLeft > 0 && ` · about ${wavesLeft} ${wavesLeft === 1 ? 'wave' : 'waves'} left`}
          {secondsLeft != null &&
            (secondsLeft >= 1 ? ` · about ${formatSeconds(secondsLeft)} left` : ' · past the estimate')}
        </Tone>
        {blockedBy && <Tone tone="bad"> · blocked: {blockedBy}</Tone>}
      </Text>
      <Text>
        <ProgressBar done={counts.done} total={counts.total} />
        {busy.length > 0 && <Tone tone="muted"> · {busy.join(' · ')}</Tone>}
      </Text>
    </Box>
  );
}
