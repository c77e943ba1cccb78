import {
  createWriteStream,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { safeText } from '../safe-text.js';
import type { RunEvent } from './events.js';

/**
 * Where a run keeps its command's output: `$XDG_STATE_HOME/kubectl-maint/runs/<run>/` (XDG's place for
 * state worth keeping across runs, such as logs), `~/.local/state/…` when it is not set.
 */
export function commandLogDir(runId: string, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const state =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local/state');
  return path.join(state, 'kubectl-maint', 'runs', runId);
}

/** A node's log file in the run's log directory. */
export function commandLogFile(dir: string, node: string): string {
  return path.join(dir, `${node}.log`);
}

/**
 * Appends each node's command output, as the run's events carry it, to `<dir>/<node>.log`: a line per
 * command start and end, the output lines between, without their control sequences (safeText): the log is
 * read by a person, with cat or less, and must not retitle or clear their terminal. Best effort: a log that cannot be written is said once
 * (`onProblem`) and the run goes on; the output still reaches the screen.
 */
export class CommandLogs {
  private readonly files = new Map<string, WriteStream>();
  private failed = false;

  constructor(
    private readonly dir: string,
    private readonly onProblem: (message: string) => void,
  ) {}

  take(event: RunEvent): void {
    if (this.failed) return;
    const stamp = () => new Date(event.atMs).toISOString();
    if (event.type === 'phase' && event.phase === 'command-running') {
      this.write(event.node, `--- ${stamp()} command started on ${event.node}\n`);
    } else if (event.type === 'command-output') {
      this.write(event.node, `${safeText(event.line)}\n`);
    } else if (event.type === 'command-finished') {
      this.write(event.node, `--- ${stamp()} command ${event.failure ?? 'exited 0'}\n`);
    }
  }

  private write(node: string, text: string): void {
    let file = this.files.get(node);
    if (!file) {
      try {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      } catch (err) {
        return this.fail(err);
      }
      file = createWriteStream(commandLogFile(this.dir, node), { flags: 'a', mode: 0o600 });
      file.on('error', (err) => this.fail(err));
      this.files.set(node, file);
    }
    file.write(text);
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.onProblem(`cannot keep the command output in ${this.dir}: ${(err as Error).message}`);
  }

  /** Every log flushed and closed. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.files.values()].map((file) => new Promise<void>((resolve) => file.end(() => resolve()))),
    );
    this.files.clear();
  }
}

/** A command's result this machine kept because it could not write it to the cluster yet. */
export interface KeptResult {
  readonly runId: string;
  readonly node: string;
  readonly exitCode: number | null;
  /** Why it failed, in one line; null when it exited 0. */
  readonly failure: string | null;
  /** When the command ended (ISO time). */
  readonly at: string;
}

/** Where a node's kept result is: beside its log. */
export function keptResultFile(dir: string, node: string): string {
  return path.join(dir, `${node}.result.json`);
}

/**
 * Keeps a command's result on this machine until it is written to the node (dropResult): should the API
 * server be away, or this process end, before that write, a resume on this machine finds it (keptResult)
 * and writes it, instead of taking the command for interrupted and running it again. Written whole
 * (a temporary file renamed over it). False when it could not be written.
 */
export function keepResult(dir: string, result: KeptResult): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = keptResultFile(dir, result.node);
    writeFileSync(`${file}.tmp`, `${JSON.stringify(result)}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    return true;
  } catch {
    return false;
  }
}

/** The result kept for `node` of run `runId`, if this machine kept one. */
export function keptResult(dir: string, runId: string, node: string): KeptResult | null {
  try {
    const kept = JSON.parse(readFileSync(keptResultFile(dir, node), 'utf8')) as KeptResult;
    return kept.runId === runId && kept.node === node && typeof kept.at === 'string' ? kept : null;
  } catch {
    return null;
  }
}

/** The node's result is written to the cluster: nothing left to keep. */
export function dropResult(dir: string, node: string): void {
  rmSync(keptResultFile(dir, node), { force: true });
}
