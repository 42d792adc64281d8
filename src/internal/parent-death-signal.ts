import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** util-linux's setpriv, where Linux distributions put it. */
const SETPRIV = '/usr/bin/setpriv';

let checked: boolean | undefined;

/**
 * Whether this system's setpriv can start a program with PR_SET_PDEATHSIG (util-linux 2.33 and later):
 * asked once, by running it (a few milliseconds, on the first child only).
 */
function setprivHasPdeathsig(): boolean {
  checked ??= existsSync(SETPRIV) && spawnSync(SETPRIV, ['--pdeathsig', 'KILL', 'true']).status === 0;
  return checked;
}

/**
 * How to start a child process that the kernel SIGKILLs when this process dies (prctl PR_SET_PDEATHSIG, set
 * by setpriv, which then execs the program: the child keeps its pid, fds and IPC channel): the `execPath` and
 * the leading `execArgv` for `fork` (the program, then its own flags, follow). A child that listens for its
 * IPC channel's 'disconnect' hears of its parent's death only when its event loop turns; a child stuck in a
 * loop that never yields does not, and this ends it all the same. Undefined where setpriv is missing or too
 * old (macOS, old distributions): the child's 'disconnect' is all there is.
 */
export function killedWithParent(): { execPath: string; execArgv: string[] } | undefined {
  if (process.platform !== 'linux' || !setprivHasPdeathsig()) return undefined;
  return { execPath: SETPRIV, execArgv: ['--pdeathsig', 'KILL', '--', process.execPath] };
}
