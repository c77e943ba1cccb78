// Re-runs the plugin with the Node.js pinned in the project (devDependency `node`, installed into
// node_modules by `npm ci`) when an older `node` started it. Plain JavaScript any Node.js since 14 runs.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout } from 'node:timers';
import { fileURLToPath, URL } from 'node:url';

/** Marks the child, so that a pinned Node.js that is somehow old too cannot start a loop. */
const GUARD = 'KUBECTL_MAINT_PINNED_NODE';

/** The pinned runtime next to this package, or null when there is none (an npm install has none). */
export function pinnedNodePath(entryUrl, platform = process.platform, exists = existsSync) {
  const binary = platform === 'win32' ? '../node_modules/node/bin/node.exe' : '../node_modules/node/bin/node';
  const path = fileURLToPath(new URL(binary, entryUrl));
  return exists(path) ? path : null;
}

/**
 * The signals passed on to the child. SIGUSR1 is left alone: it starts Node's inspector. SIGKILL and
 * SIGSTOP cannot be caught: when this process is killed, the child sees its IPC channel close
 * (followParent).
 */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];

/**
 * Runs ENTRY with the pinned Node.js and the same arguments, terminal and environment, and ends this
 * process as the child ends (same exit code, or the same signal). Resolves false when there is no
 * pinned Node.js to run. Every signal this process gets is passed on over an IPC channel (followParent
 * in the child takes it as its own, once: Ctrl-C reaches the child from the terminal as well); should
 * this process die without a word (SIGKILL), the channel closes and the child stops as on SIGTERM.
 */
export async function runWithPinnedNode(entryUrl) {
  const node = pinnedNodePath(entryUrl);
  if (!node || process.env[GUARD]) return false;
  const args = [fileURLToPath(entryUrl), ...process.argv.slice(2)];
  const env = { ...process.env, [GUARD]: '1' };
  if (typeof process.execve === 'function') process.execve(node, [node, ...args], env); // Node >= 22.15
  const child = spawn(node, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env });
  for (const signal of FORWARDED) {
    process.on(signal, () => {
      if (child.connected) child.send({ [GUARD]: signal }, () => {});
    });
  }
  const [code, signal] = await new Promise((resolve) => {
    child.on('exit', (c, s) => resolve([c, s]));
    child.on('error', (err) => {
      process.stderr.write(`error: cannot run the pinned Node.js ${node}: ${err.message}\n`);
      resolve([1, null]);
    });
  });
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
}

/**
 * A signal a real one of the same name arrived this close to (ms) is the same keypress: Ctrl-C on a
 * terminal reaches both processes, and the parent passes it on as well.
 */
const SAME_SIGNAL_MS = 300;

/**
 * In the child runWithPinnedNode started (an IPC channel to it, GUARD set): takes each signal the parent
 * passes on as its own, unless the same signal reached this process directly just before or after
 * (Ctrl-C on a terminal reaches both); and once the parent is gone (the channel closed: it was killed),
 * stops as on SIGTERM. The channel never keeps this process alive. A no-op in any other process.
 */
export function followParent() {
  if (!process.env[GUARD] || !process.channel || typeof process.send !== 'function') return;
  delete process.env[GUARD];
  const lastReal = new Map();
  const raised = new Set();
  const raise = (signal) => {
    raised.add(signal);
    process.kill(process.pid, signal);
  };
  for (const signal of FORWARDED) {
    const onSignal = () => {
      if (!raised.delete(signal)) lastReal.set(signal, Date.now());
      // Listening must not change what the signal does where nothing else listens: the default, to end.
      if (process.listenerCount(signal) === 1) die(signal, onSignal);
    };
    process.on(signal, onSignal);
  }
  process.on('message', (message) => {
    const signal = message && message[GUARD];
    if (!FORWARDED.includes(signal)) return;
    const at = Date.now();
    setTimeout(() => {
      if ((lastReal.get(signal) ?? -Infinity) < at - SAME_SIGNAL_MS) raise(signal);
    }, SAME_SIGNAL_MS).unref();
  });
  process.on('disconnect', () => raise('SIGTERM'));
  process.channel.unref();
}

/** Ends this process by `signal`'s default action, as if nothing listened. */
function die(signal, listener) {
  process.removeListener(signal, listener);
  process.kill(process.pid, signal);
}
