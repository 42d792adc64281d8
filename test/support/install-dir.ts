import { accessSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Linux's RAM-backed folder. */
const RAM_DIR = '/dev/shm';
/** What the installs of one suite take at most, with room to spare (test:registry's were 770 MB in all). */
const NEEDED_BYTES = 2 * 1024 ** 3;
/**
 * A folder of this kind older than this is a run's that was killed before its own clean-up (a suite takes
 * minutes): in RAM it would hold its hundreds of MB until the machine restarts, so the next run removes it.
 */
export const ABANDONED_AFTER_MS = 3 * 60 * 60 * 1000;

/**
 * A new temporary folder for projects that `npm install`, in RAM (/dev/shm) where the machine has one with
 * room, else in the OS's temp folder. On this machine's disk (ext4 mounted with `discard`) removing one
 * starter's node_modules (20,000 files, 263 MB) took 25 s, and test:registry's folder 51 s in all, each file
 * deleted being a discard; npm writes the same files, and they are the same files in RAM.
 */
export function installDir(prefix: string): string {
  const parent = hasRoom(RAM_DIR) ? RAM_DIR : tmpdir();
  removeAbandoned(parent, prefix);
  return mkdtempSync(join(parent, prefix));
}

/** Removes the folders `prefix…` in `parent` that are older than ABANDONED_AFTER_MS. */
export function removeAbandoned(parent: string, prefix: string, now = Date.now()): void {
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix) || name.length !== prefix.length + 6) continue; // mkdtemp adds 6 characters
    const path = join(parent, name);
    try {
      if (now - statSync(path).mtimeMs > ABANDONED_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone already, or another run's: nothing to do.
    }
  }
}

function hasRoom(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize >= NEEDED_BYTES;
  } catch {
    return false;
  }
}
