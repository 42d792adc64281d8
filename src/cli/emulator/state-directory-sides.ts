import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// A state directory is replaced by two renames (state-directory.ts, writeStateDirectory): the old one aside to
// `.<name>.<pid>.old`, the new one from `.<name>.<pid>.tmp` into place. A writer killed between them leaves no
// directory at the name; one killed while writing leaves a half `.tmp`. This puts the right one back.

export type SideKind = 'tmp' | 'old';

/** Where a writer with this pid keeps a side directory of `target`. */
export function sideDirectory(target: string, pid: number, kind: SideKind): string {
  return join(dirname(target), `.${basename(target)}.${pid}.${kind}`);
}

interface Side {
  path: string;
  kind: SideKind;
  modifiedMs: number;
}

const SIDE_NAME = /^\.(.+)\.(\d{1,10})\.(tmp|old)$/;

function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the pid is someone else's live process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The side directories of `target` left by writers that are no longer running. */
function abandonedSides(target: string): Side[] {
  const parent = dirname(target);
  if (!existsSync(parent)) return [];
  const name = basename(target);
  const sides: Side[] = [];
  for (const entry of readdirSync(parent)) {
    const match = SIDE_NAME.exec(entry);
    if (!match || match[1] !== name || running(Number(match[2]))) continue;
    const path = join(parent, entry);
    sides.push({ path, kind: match[3] as SideKind, modifiedMs: statSync(path).mtimeMs });
  }
  return sides;
}

/**
 * Mends what an interrupted write left beside `target`. With `target` gone, the newest complete new state (a
 * `.tmp` that holds its manifest, which is written last, after every other file is flushed) goes into place,
 * else the previous state (`.old`). Every other side directory of a writer no longer running is removed.
 * Returns the side directory put back, if one was.
 */
export function recoverStateDirectory(target: string, manifest: string): string | undefined {
  const sides = abandonedSides(target);
  let restored: string | undefined;
  if (!existsSync(target)) {
    const newest = (kind: SideKind) =>
      sides
        .filter((s) => s.kind === kind && (kind === 'old' || existsSync(join(s.path, manifest))))
        .sort((a, b) => b.modifiedMs - a.modifiedMs)[0];
    const chosen = newest('tmp') ?? newest('old');
    if (chosen) {
      renameSync(chosen.path, target);
      restored = chosen.path;
    }
  }
  for (const side of sides) if (side.path !== restored) rmSync(side.path, { recursive: true, force: true });
  return restored;
}
