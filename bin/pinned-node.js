// Re-runs the plugin with the Node.js pinned in the project (devDependency `node`, installed into
// node_modules by `npm ci`) when an older `node` started it. Plain JavaScript any Node.js since 14 runs.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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
 * Runs ENTRY with the pinned Node.js and the same arguments, terminal and environment, and ends this
 * process as the child ends (same exit code, or the same signal). Resolves false when there is no
 * pinned Node.js to run. Ctrl-C reaches the child from the terminal directly; this process only waits
 * for it, so the child can finish its summary before the shell prompt returns. SIGTERM and SIGHUP sent
 * to this process are passed on.
 */
export async function runWithPinnedNode(entryUrl) {
  const node = pinnedNodePath(entryUrl);
  if (!node || process.env[GUARD]) return false;
  const args = [fileURLToPath(entryUrl), ...process.argv.slice(2)];
  const env = { ...process.env, [GUARD]: '1' };
  if (typeof process.execve === 'function') process.execve(node, [node, ...args], env); // Node >= 22.15
  const child = spawn(node, args, { stdio: 'inherit', env });
  const forward = (signal) => () => child.kill(signal);
  process.on('SIGINT', () => {});
  process.on('SIGTERM', forward('SIGTERM'));
  process.on('SIGHUP', forward('SIGHUP'));
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
