import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from './cli-error.js';

/** SQLite creates a --db file but not its directory, and says so in an error that names no option: say it here. */
export function requireDbDirectory(file: string): void {
  const dir = dirname(resolve(file));
  if (!existsSync(dir))
    throw new CliError('NOT_FOUND', `No directory ${dir} for --db ${file}.`, {
      hint: 'Create it first, or name a file in a directory that exists.',
    });
}
