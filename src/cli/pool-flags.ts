import { InvalidArgumentError, Option } from 'commander';
import { parseDurationMs } from './flag-values.js';

/** `--max-unavailable N|P%` as given: a count of nodes, or a percentage of the pool. */
export type MaxUnavailable = { readonly count: number } | { readonly percent: number };

/**
 * Parses `--max-unavailable`: a whole number ≥ 1 or a percentage above 0 (`25%`). 0 and 0% are refused:
 * it is how many nodes are out of service at once, so 0 would never drain a node.
 */
export function parseMaxUnavailable(text: string): MaxUnavailable {
  const value = text.trim();
  const percent = /^(\d+)%$/.exec(value);
  if (percent) {
    const p = Number(percent[1]);
    if (p < 1 || p > 100) throw new InvalidArgumentError('a percentage must be between 1% and 100%.');
    return { percent: p };
  }
  if (!/^\d+$/.test(value))
    throw new InvalidArgumentError('expected a number of nodes (2) or a percentage of the pool (25%).');
  if (Number(value) < 1)
    throw new InvalidArgumentError(
      'must be at least 1: it is how many nodes are out of service at once, so with 0 no node could ever be drained.',
    );
  return { count: Number(value) };
}

/**
 * How many nodes of a pool of `poolSize` go at once: a count as given, a percentage of the pool rounded
 * down (as a Deployment's maxUnavailable is) but never below one node.
 */
export function resolveMaxUnavailable(value: MaxUnavailable, poolSize: number): number {
  if ('count' in value) return value.count;
  return Math.max(1, Math.floor((value.percent * poolSize) / 100));
}

export function maxUnavailableOption(
  description = 'at most this many nodes (or this share of the pool, rounded down) out of service at once (default 1)',
): Option {
  return new Option('--max-unavailable <n|p%>', description).argParser(parseMaxUnavailable);
}

/** `--command-time D`: what the estimates assume the operator's command and the node's return take per batch. */
export function commandTimeOption(): Option {
  return new Option(
    '--command-time <duration>',
    "how long the command and the node's return (a reboot) take on a node: an assumption for the estimates, until a run has measured it (default: not counted)",
  ).argParser(parseDurationMs);
}
