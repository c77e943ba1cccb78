import { Option } from 'commander';

/**
 * `--ignore-run-claim` of drain, cordon and uncordon: act on a node that a live run has claimed
 * (run/live-claim.ts refuses it otherwise). Its help says what it breaks.
 */
export interface IgnoreRunClaimValue {
  readonly ignoreRunClaim?: boolean;
}

export function ignoreRunClaimOption(): Option {
  return new Option(
    '--ignore-run-claim',
    'act on nodes a live run (kubectl maint run) has claimed; the run is not told: an uncordon puts its node ' +
      'back in service in the middle of its maintenance, and the run uncordons at its end what a cordon or ' +
      'a drain took out',
  );
}
