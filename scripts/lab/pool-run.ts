/**
 * `kubectl maint run` over the lab's `pool` scenario (six KWOK workers labelled pool=blue, three budgeted
 * workloads): the arguments the e2e tests and the run benchmark share, written once.
 */

/** The pool's workers, two at a time. */
export const POOL_WINDOW: readonly string[] = ['-l', 'pool=blue', '--max-unavailable', '2'];

/** A run whose command reboots the node: DaemonSet pods stay, a new bootID is awaited, JSON Lines events. */
export const RUN_FLAGS: readonly string[] = ['--ignore-daemonsets', '--expect-reboot', '-o', 'json'];

/** `run` over the pool, then `--` and the command; `expectReboot: false` for a command that does not reboot. */
export function poolRunArgs(command: readonly string[], { expectReboot = true } = {}): string[] {
  const flags = expectReboot ? RUN_FLAGS : RUN_FLAGS.filter((flag) => flag !== '--expect-reboot');
  return ['run', ...POOL_WINDOW, ...flags, '--', ...command];
}
