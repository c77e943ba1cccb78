import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes an operator's command started, found again when it must be stopped. The command runs as
 * the leader of its own session and process group (its pid is both ids), so signalling the group reaches
 * what it forks; a process that left the group (setpgid) or the session (setsid) is found on Linux from
 * /proc: by its session, by its parent chain up to the command, or by the environment the command passed
 * on (MAINT_RUN and MAINT_NODE, which a daemonized child keeps). What clears its environment and leaves
 * the session once its parent is gone is beyond reach; no cgroup is made (docs/runs.md says so).
 */

interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /** A zombie has ended: only its parent's wait is missing. */
  readonly ended: boolean;
}

/** /proc/PID/stat: `pid (comm) state ppid pgrp session …`, comm possibly holding spaces and parentheses. */
export function parseStat(stat: string): ProcessEntry | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 2).split(' ');
  const [ppid, pgrp, session] = [fields[1], fields[2], fields[3]].map(Number);
  const pid = Number.parseInt(stat, 10);
  if (![pid, ppid, pgrp, session].every(Number.isInteger)) return null;
  return { pid, ppid: ppid!, pgrp: pgrp!, session: session!, ended: fields[0] === 'Z' || fields[0] === 'X' };
}

function readProcesses(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const entry = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (entry) entries.push(entry);
    } catch {
      // gone since the directory was read
    }
  }
  return entries;
}

/** Whether the process's environment holds every one of `marks` ("NAME=value"); false where it cannot be read. */
function environmentHolds(pid: number, marks: readonly string[]): boolean {
  try {
    const vars = new Set(readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0'));
    return marks.every((mark) => vars.has(mark));
  } catch {
    return false;
  }
}

/**
 * The pids of the processes the command `leader` started and that still run, the leader included while
 * it runs: its session, its group, its descendants, and any process whose environment holds all of
 * `marks`. Empty where /proc cannot be read (the process group is then all that is reached).
 */
export function commandProcesses(leader: number, marks: readonly string[], self = process.pid): number[] {
  const entries = readProcesses();
  const children = new Map<number, number[]>();
  for (const e of entries) children.set(e.ppid, [...(children.get(e.ppid) ?? []), e.pid]);
  const found = new Set<number>();
  const descend = (pid: number) => {
    if (found.has(pid)) return;
    found.add(pid);
    for (const child of children.get(pid) ?? []) descend(child);
  };
  for (const e of entries) {
    if (e.pid === self) continue;
    if (e.pid === leader || e.session === leader || e.pgrp === leader) descend(e.pid);
  }
  for (const e of entries) {
    if (e.pid !== self && !found.has(e.pid) && environmentHolds(e.pid, marks)) descend(e.pid);
  }
  found.delete(self);
  const ended = new Set(entries.filter((e) => e.ended).map((e) => e.pid));
  return [...found].filter((pid) => !ended.has(pid));
}
