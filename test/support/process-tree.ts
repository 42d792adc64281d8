// Processes as Linux's /proc shows them, for the tests and benches that check what a process started: the
// knowledge-file parse processes (src/emulator/knowledge-files/parse-process.ts) and their memory.
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat from the third on (after the command, which may hold spaces and parentheses). */
function statOf(pid: number): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

/** The CPU time `pid` has used, user and system, in clock ticks (USER_HZ, 100 a second on Linux); 0 once gone. */
export function cpuTicksOf(pid: number): number {
  const stat = statOf(pid);
  return Number(stat[11] ?? 0) + Number(stat[12] ?? 0);
}

/**
 * Whether `pid` runs: a zombie (exited, not yet reaped, which an orphan's new parent may never do) does not.
 */
export function isRunning(pid: number): boolean {
  const state = statOf(pid)[0];
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/**
 * The running children of `pid`: /proc/<pid>/task/<tid>/children lists those each of its threads started
 * (a cheap read, for a bench sampling every 20 ms). Empty once `pid` is gone.
 */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.filter(isRunning);
}

/** `pid` and every running process below it. */
export function processTree(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(processTree)];
}

/** The sizes of /proc/<pid>/status in KiB (VmRSS, VmHWM, RssAnon, RssFile, …), by name; none once it is gone. */
export function statusKib(pid: number): Partial<Record<string, number>> {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return {};
  }
  return Object.fromEntries(
    Array.from(status.matchAll(/^(\w+):\s+(\d+) kB$/gm), ([, name, kib]) => [name, Number(kib)]),
  );
}

/** The command line of `pid`, its arguments joined by spaces ('' once it is gone). */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}
