import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { CliError } from '../cli-error.js';

/** Refuses a path that is a file or a directory with anything in it: a starter never overwrites work. */
export function assertWritableTarget(targetDir: string): void {
  if (!existsSync(targetDir)) return;
  if (!statSync(targetDir).isDirectory()) {
    throw new CliError('USAGE', `${targetDir} exists and is not a directory`, { hint: 'Choose a new directory name.' });
  }
  const entries = readdirSync(targetDir);
  if (entries.length > 0) {
    const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
    throw new CliError(
      'USAGE',
      `${targetDir} is not empty (${shown}); create-starter only writes into a new or empty directory`,
      {
        hint: 'Choose a new directory name, or empty this one first.',
      },
    );
  }
}

/** A valid npm package name from the directory name: lower case, URL-safe, at most 214 characters. */
export function packageNameFor(targetDir: string): string {
  const name = basename(targetDir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 214);
  return name.length > 0 ? name : 'convo-kit-app';
}
