import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from './cli-from-source.js';

// The child bin/pinned-node.js starts under the pinned Node.js when an older one ran kubectl-maint: it
// takes the signals its parent passes on, once each, and stops when the parent dies.
const root = path.resolve(import.meta.dirname, '../../..');
const dir = scratchDir();

/** A child that counts the signals it handles and says so on each, as the run's two-step Ctrl-C would. */
const counter = path.join(dir, 'counter.mjs');
writeFileSync(
  counter,
  [
    `import { followParent } from ${JSON.stringify(path.join(root, 'bin/pinned-node.js'))};`,
    'followParent();',
    'const seen = [];',
    "for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => { seen.push(s); process.stdout.write(seen.join(',') + '\\n'); });",
    "process.stdout.write('ready\\n');",
    'setInterval(() => {}, 1000);',
  ].join('\n'),
);

function startCounter() {
  const child = fork(counter, [], {
    env: { ...process.env, KUBECTL_MAINT_PINNED_NODE: '1' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const until = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => (out.includes(text) ? resolve() : setTimeout(check, 20));
      check();
    });
  return { child, until, output: () => out };
}

describe('the pinned Node.js child (followParent)', () => {
  it('takes a signal its parent passes on as its own', async () => {
    const { child, until } = startCounter();
    await until('ready');
    child.send({ KUBECTL_MAINT_PINNED_NODE: 'SIGINT' });
    await until('SIGINT\n');
    child.send({ KUBECTL_MAINT_PINNED_NODE: 'SIGINT' });
    await until('SIGINT,SIGINT\n');
    child.kill('SIGKILL');
  });

  it('takes a Ctrl-C that reached it from the terminal and from its parent once', async () => {
    const { child, until, output } = startCounter();
    await until('ready');
    child.kill('SIGINT');
    child.send({ KUBECTL_MAINT_PINNED_NODE: 'SIGINT' });
    // A marker passed on after it: had the passed-on SIGINT counted too, it would come before the marker.
    child.send({ KUBECTL_MAINT_PINNED_NODE: 'SIGTERM' });
    await until('SIGTERM');
    expect(output()).toBe('ready\nSIGINT\nSIGINT,SIGTERM\n');
    child.kill('SIGKILL');
  });

  it('stops as on SIGTERM when its parent is gone (the channel closed)', async () => {
    const { child, until } = startCounter();
    await until('ready');
    child.disconnect();
    await until('SIGTERM\n');
    child.kill('SIGKILL');
  });

  it('ends by the default action of a signal nothing else listens to', async () => {
    const bare = path.join(dir, 'bare.mjs');
    writeFileSync(
      bare,
      `import { followParent } from ${JSON.stringify(path.join(root, 'bin/pinned-node.js'))};\nfollowParent();\nprocess.stdout.write('ready\\n');\nsetInterval(() => {}, 1000);\n`,
    );
    const child = fork(bare, [], {
      env: { ...process.env, KUBECTL_MAINT_PINNED_NODE: '1' },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    child.send({ KUBECTL_MAINT_PINNED_NODE: 'SIGINT' });
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.on('exit', (c, s) => resolve([c, s])),
    );
    expect([code, signal]).toEqual([null, 'SIGINT']);
  });
});
