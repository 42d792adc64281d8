import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from './cli-error.js';

/**
 * SQLite creates a --db file but not its directory, and says so in an error that names no option: say it here
 * (and for any file an option writes later, such as --export-on-exit, before anything starts).
 */
export function requireDbDirectory(file: string, option = '--db'): void {
  const dir = dirname(resolve(file));
  if (!existsSync(dir))
    throw new CliError('NOT_FOUND', `No directory ${dir} for ${option} ${file}.`, {
      hint: 'Create it first, or name a file in a directory that exists.',
    });
}
