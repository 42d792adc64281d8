// Processes as Linux's /proc shows them, for the tests and benches that check what a process started: the
// knowledge-file parse processes (src/emulator/knowledge-files/parse-process.ts) and their memory.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
export const TICK_MICROS = 10_000;

/**
 * The fields of a /proc stat line (a process's, a thread's) from the third on, after the command, which may
 * hold spaces and parentheses: the state is [0], utime and stime [11] and [12], cutime and cstime [13] and [14].
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The CPU time (user and system, in clock ticks) a stat line says its process or thread used itself. */
export const ownTicks = (fields: readonly string[]) => Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
/** The CPU time (user and system, in clock ticks) of a process's children that it has waited for. */
export const waitedChildrenTicks = (fields: readonly string[]) => Number(fields[13] ?? 0) + Number(fields[14] ?? 0);

/** The fields of the stat file at `path` (statFields); undefined when it cannot be read (gone, or not Linux). */
export function statFileFields(path: string): string[] | undefined {
  try {
    return statFields(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const statOf = (pid: number): string[] => statFileFields(`/proc/${pid}/stat`) ?? [];

/** The CPU time `pid` has used, user and system, in clock ticks; 0 once gone. */
export function cpuTicksOf(pid: number): number {
  return ownTicks(statOf(pid));
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
