import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { commandProcesses } from './command-processes.js';
import { OutputLines } from './output-lines.js';

export interface CommandRequest {
  /** argv; `{node}` in any argument is replaced by the node's name. */
  readonly argv: readonly string[];
  readonly node: string;
  readonly runId: string;
  /** The directory it runs in (the run's, recorded when it started); this process's when absent. */
  readonly cwd?: string | undefined;
  /** KUBECONFIG for the command: the file the run itself uses, if any. */
  readonly kubeconfig?: string | undefined;
  /** Milliseconds; 0 = no limit. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Each line of output as it comes, stdout and stderr interleaved; a long line split (output-lines.ts). */
  readonly onLine: (stream: 'stdout' | 'stderr', line: string) => void;
}

export interface CommandResult {
  readonly exitCode: number | null;
  /** Why it failed, in one line; null when it exited 0. */
  readonly failure: string | null;
  readonly interrupted: boolean;
  /** It never ran (its file gone or no longer executable since the run checked it): why, in one line. */
  readonly cannotStart?: string | undefined;
}

/** The operator's argv for one node: `{node}` replaced in every argument. */
export function commandFor(argv: readonly string[], node: string): string[] {
  return argv.map((arg) => arg.replaceAll('{node}', node));
}

/**
 * Runs the operator's command once for a node, without a shell (the argv as given), with MAINT_NODE,
 * MAINT_RUN and KUBECONFIG in its environment, streaming its lines. Never throws: a command that cannot
 * start, exits non-zero, is killed by --command-timeout or by an interruption is a result.
 *
 * Its result is its process's exit, not the end of its output: a process it left behind (`setsid sleep
 * 25 &`) may hold its stdout open long after. What it wrote before it exited is read to the end (the
 * pipes are read until they close or stay quiet for a moment); what a process left behind writes later
 * is not kept.
 */
export async function runCommand(request: CommandRequest): Promise<CommandResult> {
  const [file, ...args] = commandFor(request.argv, request.node);
  const marks = [`MAINT_NODE=${request.node}`, `MAINT_RUN=${request.runId}`];
  const child = spawn(file!, args, {
    env: {
      ...process.env,
      MAINT_NODE: request.node,
      MAINT_RUN: request.runId,
      ...(request.kubeconfig ? { KUBECONFIG: request.kubeconfig } : {}),
    },
    ...(request.cwd ? { cwd: request.cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own session and process group (its pid is both), so that a timeout or an interruption stops
    // the whole command (a script's children too), not only its first process.
    detached: true,
  });
  const spawned = await new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null));
    child.once('error', resolve);
  });
  if (spawned || child.pid === undefined) {
    // spawn's own words ("spawn /opt/x ENOENT").
    return { exitCode: null, failure: null, interrupted: false, cannotStart: firstLine(spawned) };
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stopped = stopCommandOn(child.pid, marks, request);
  const output = [forward(child.stdout, 'stdout', request), forward(child.stderr, 'stderr', request)];
  const { code, signal } = await exited;
  stopped.exited();
  await Promise.all(output.map((stream) => stream.drained()));
  await stopped.settled();
  if (stopped.why === 'interrupted') return { exitCode: null, failure: 'interrupted', interrupted: true };
  if (stopped.why === 'timeout') {
    return {
      exitCode: null,
      failure: `timed out after ${request.timeoutMs / 1000}s (--command-timeout)`,
      interrupted: false,
    };
  }
  if (code !== 0) {
    const how = signal ? `killed by ${signal}` : `exited ${code}`;
    return { exitCode: code, failure: how, interrupted: false };
  }
  return { exitCode: 0, failure: null, interrupted: false };
}

function firstLine(err: Error | null): string {
  return (err?.message ?? 'failed to start').split('\n')[0]!;
}

/** How long the output may stay quiet after the command exited before it counts as read to its end. */
const QUIET_AFTER_EXIT_MS = 100;
/** The most time spent reading after the exit, however much a process left behind keeps writing. */
const READ_AFTER_EXIT_MS = 2000;

/**
 * Hands on one stream's lines as they come; `drained` (called once the command exited) resolves when the
 * stream closed, or when it stayed quiet for QUIET_AFTER_EXIT_MS: the command's own output was in the pipe
 * when it exited, read at once, so quiet means only processes it left behind still hold the pipe. The
 * stream is then closed and its last line without a newline handed on.
 */
function forward(stream: Readable | null, name: 'stdout' | 'stderr', request: CommandRequest) {
  const lines = new OutputLines();
  let ended = false;
  let onActivity = () => {};
  const finish = () => {
    if (ended) return;
    ended = true;
    for (const line of lines.end()) request.onLine(name, line);
    onActivity();
  };
  stream?.on('data', (chunk: Buffer) => {
    for (const line of lines.push(chunk)) request.onLine(name, line);
    onActivity();
  });
  stream?.on('end', finish);
  stream?.on('close', finish);
  stream?.on('error', finish);
  return {
    drained: () =>
      new Promise<void>((resolve) => {
        if (!stream || ended) return resolve(finish());
        const started = Date.now();
        let quiet: NodeJS.Timeout | undefined;
        const done = () => {
          clearTimeout(quiet);
          onActivity = () => {};
          stream.destroy();
          finish();
          resolve();
        };
        onActivity = () => {
          clearTimeout(quiet);
          if (ended || Date.now() - started >= READ_AFTER_EXIT_MS) return done();
          quiet = setTimeout(done, QUIET_AFTER_EXIT_MS);
        };
        onActivity();
      }),
  };
}

const KILL_AFTER_MS = 5000;
/** How long processes may take to be gone after the SIGKILL before the command counts as over anyway. */
const GONE_AFTER_KILL_MS = 2000;
/** How often the processes are looked for again, after the SIGTERM, until none is left. */
const GONE_POLL_MS = 100;

/**
 * On timeout or abort: SIGTERM to every process the command started (command-processes.ts: its group, its
 * session, its descendants, what carries its environment), SIGKILL to those still there 5 s later.
 * `settled` resolves at once when neither happened, else once none of them is left (2 s after the SIGKILL at most):
 * the command is over only when all it started is.
 */
function stopCommandOn(leader: number, marks: readonly string[], request: CommandRequest) {
  let kill: NodeJS.Timeout | undefined;
  const signalAll = (signal: NodeJS.Signals) => {
    for (const pid of [-leader, ...commandProcesses(leader, marks)]) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
  };
  const state = {
    why: null as 'timeout' | 'interrupted' | null,
    /** The command's process exited: what happens from now on is no longer its timeout nor its interruption. */
    exited: () => {
      clearTimeout(timeout);
      request.signal?.removeEventListener('abort', onAbort);
    },
    settled: async () => {
      if (state.why === null) return;
      // Until none is left: after the SIGKILL too, which takes a moment to end them.
      const deadline = Date.now() + KILL_AFTER_MS + GONE_AFTER_KILL_MS;
      while (commandProcesses(leader, marks).length > 0 && Date.now() < deadline) await sleep(GONE_POLL_MS);
      clearTimeout(kill);
    },
  };
  const stop = (why: 'timeout' | 'interrupted') => {
    if (state.why) return;
    state.why = why;
    signalAll('SIGTERM');
    kill = setTimeout(() => signalAll('SIGKILL'), KILL_AFTER_MS);
  };
  const timeout = request.timeoutMs > 0 ? setTimeout(() => stop('timeout'), request.timeoutMs) : undefined;
  const onAbort = () => stop('interrupted');
  if (request.signal?.aborted) onAbort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  return state;
}

/** The operator's command made to run the same from anywhere (a resume from another directory). */
export interface ResolvedCommand {
  /** argv, its file an absolute path. */
  readonly argv: readonly string[];
  /** The directory it runs in. */
  readonly dir: string;
}

/**
 * Checks before anything is written that the command can run, and resolves it: its file, given with a
 * slash (against `cwd`) or found on PATH, must be an executable file; it becomes an absolute path and
 * `cwd` the directory it runs in, so that `--resume` from elsewhere runs exactly it. An empty argv (no
 * command) resolves to itself. A one-line problem otherwise.
 */
export function resolveCommand(
  argv: readonly string[],
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): ResolvedCommand | { readonly problem: string } {
  const [file, ...args] = argv;
  if (file === undefined || file === '') return { argv, dir: cwd };
  const candidates = file.includes('/')
    ? [path.resolve(cwd, file)]
    : (env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.resolve(cwd, dir, file));
  const found = candidates.find(isExecutableFile);
  if (found) return { argv: [found, ...args], dir: cwd };
  return {
    problem: file.includes('/')
      ? `command "${file}" is not an executable file`
      : `command "${file}" is not an executable found on PATH`,
  };
}

/** The problem `resolveCommand` finds, or null. */
export function commandProblem(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const resolved = resolveCommand(argv, cwd, env);
  return 'problem' in resolved ? resolved.problem : null;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
