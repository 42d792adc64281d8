import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * How `fork` starts a child: the program it runs (`execPath`) and the arguments before the child's own flags
 * (`execArgv`). Each wrapper below runs the next one, which ends by exec'ing Node itself: the child keeps its
 * pid, its fds and its IPC channel.
 */
export interface ChildLauncher {
  execPath: string;
  execArgv: string[];
}

/** Node itself, as `fork` starts it. */
export const nodeLauncher = (): ChildLauncher => ({ execPath: process.execPath, execArgv: [] });

/** util-linux's setpriv and prlimit, where Linux distributions put them. */
const SETPRIV = '/usr/bin/setpriv';
const PRLIMIT = '/usr/bin/prlimit';

const works = new Map<string, boolean>();

/** Whether `command args… true` runs here: asked once per wrapper, by running it (a few milliseconds). */
function wrapperWorks(command: string, args: string[]): boolean {
  let ok = works.get(command);
  if (ok === undefined) {
    ok = process.platform === 'linux' && existsSync(command) && spawnSync(command, [...args, 'true']).status === 0;
    works.set(command, ok);
  }
  return ok;
}

function wrapped(command: string, args: string[], inner: ChildLauncher): ChildLauncher {
  if (!wrapperWorks(command, args)) return inner;
  return { execPath: command, execArgv: [...args, inner.execPath, ...inner.execArgv] };
}

/**
 * `inner`, started so that the kernel SIGKILLs it when this process dies (prctl PR_SET_PDEATHSIG, set by
 * setpriv, util-linux 2.33 and later). A child that listens for its IPC channel's 'disconnect' hears of its
 * parent's death only when its event loop turns; a child stuck in a loop that never yields does not, and this
 * ends it all the same. Where setpriv is missing or too old (macOS, old distributions), `inner` as it is: the
 * child's 'disconnect' is all there is.
 */
export function killedWithParent(inner: ChildLauncher = nodeLauncher()): ChildLauncher {
  return wrapped(SETPRIV, ['--pdeathsig', 'KILL', '--'], inner);
}

/**
 * `inner`, started with no core dumps (RLIMIT_CORE 0, set by prlimit): a child that V8 aborts at its heap
 * limit, as a hostile file can make a parse process do on purpose, must not write a core file of its whole
 * memory each time on a system whose limit allows them. Where prlimit is missing, `inner` as it is.
 */
export function withoutCoreDumps(inner: ChildLauncher = nodeLauncher()): ChildLauncher {
  return wrapped(PRLIMIT, ['--core=0', '--'], inner);
}
