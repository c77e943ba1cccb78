import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
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
 */
export async function runCommand(request: CommandRequest): Promise<CommandResult> {
  const [file, ...args] = commandFor(request.argv, request.node);
  const child = execa(file!, args, {
    env: {
      MAINT_NODE: request.node,
      MAINT_RUN: request.runId,
      ...(request.kubeconfig ? { KUBECONFIG: request.kubeconfig } : {}),
    },
    reject: false,
    ...(request.cwd ? { cwd: request.cwd } : {}),
    stdin: 'ignore',
    // Its own process group, so that a timeout or an interruption stops the whole command (a script's
    // children too), not only its first process.
    detached: true,
    lines: false,
    // The output goes to onLine as it comes, line by line with a bound in bytes (OutputLines): never
    // gathered whole, whatever the command writes.
    buffer: false,
  });
  const stopped = stopGroupOn(child.pid, request);
  const forward = (stream: 'stdout' | 'stderr') => {
    const lines = new OutputLines();
    child[stream]?.on('data', (chunk: Buffer) => {
      for (const line of lines.push(chunk)) request.onLine(stream, line);
    });
    child[stream]?.on('end', () => {
      for (const line of lines.end()) request.onLine(stream, line);
    });
  };
  forward('stdout');
  forward('stderr');
  const result = await child;
  stopped.dispose();
  if (stopped.why === 'interrupted') return { exitCode: null, failure: 'interrupted', interrupted: true };
  if (stopped.why === 'timeout') {
    return {
      exitCode: null,
      failure: `timed out after ${request.timeoutMs / 1000}s (--command-timeout)`,
      interrupted: false,
    };
  }
  if (result.failed && result.exitCode === undefined && result.signal === undefined) {
    // spawn's own words ("spawn /opt/x ENOENT"), not execa's sentence around them.
    const why = result.cause instanceof Error ? result.cause.message : (result.shortMessage ?? 'failed to start');
    return { exitCode: null, failure: null, interrupted: false, cannotStart: why.split('\n')[0]! };
  }
  if (result.exitCode !== 0) {
    const how = result.signal ? `killed by ${result.signal}` : `exited ${result.exitCode}`;
    return { exitCode: result.exitCode ?? null, failure: how, interrupted: false };
  }
  return { exitCode: 0, failure: null, interrupted: false };
}

const KILL_AFTER_MS = 5000;

/** SIGTERM to the command's process group on timeout or abort, SIGKILL if it is still there 5 s later. */
function stopGroupOn(pid: number | undefined, request: CommandRequest) {
  const state: { why: 'timeout' | 'interrupted' | null; dispose: () => void } = { why: null, dispose: () => {} };
  if (pid === undefined) return state;
  const timers: NodeJS.Timeout[] = [];
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  const stop = (why: 'timeout' | 'interrupted') => {
    if (state.why) return;
    state.why = why;
    signalGroup('SIGTERM');
    timers.push(setTimeout(() => signalGroup('SIGKILL'), KILL_AFTER_MS).unref());
  };
  if (request.timeoutMs > 0) timers.push(setTimeout(() => stop('timeout'), request.timeoutMs));
  const onAbort = () => stop('interrupted');
  if (request.signal?.aborted) onAbort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  state.dispose = () => {
    for (const t of timers) clearTimeout(t);
    request.signal?.removeEventListener('abort', onAbort);
  };
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
