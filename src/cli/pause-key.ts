/**
 * `kubectl maint run --pause` on a terminal: waits for one key on stdin (raw mode, so any key will do and
 * nothing is echoed). Ctrl-C pressed then arrives as a byte, not as SIGINT: it stops the run the way
 * SIGINT does (`onInterrupt`). Resolves 'stop' when the run is aborted meanwhile.
 */
export function waitForKey(
  stdin: NodeJS.ReadStream,
  signal: AbortSignal,
  onInterrupt: () => void,
): Promise<'continue' | 'stop'> {
  if (signal.aborted) return Promise.resolve('stop');
  return new Promise((resolve) => {
    const done = (answer: 'continue' | 'stop') => {
      stdin.off('data', onData);
      signal.removeEventListener('abort', onAbort);
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
      resolve(answer);
    };
    const onData = (chunk: Buffer) => {
      if (chunk.includes(0x03)) {
        done('stop');
        onInterrupt();
      } else done('continue');
    };
    const onAbort = () => done('stop');
    signal.addEventListener('abort', onAbort, { once: true });
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
