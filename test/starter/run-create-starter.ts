import { join } from 'node:path';
import { REPO_ROOT, run, type RunResult } from '../support/run-command.js';
import { SOURCES_AS_JS } from '../support/sources-as-js.js';

/**
 * `create-starter` as a user runs it (stdin not a TTY, so no prompts): node on its entry, from the sources as
 * JavaScript (test/support/sources-as-js.ts), which find the templates and this checkout as src/ does.
 */
export function createStarter(args: string[]): Promise<RunResult> {
  return run(process.execPath, [join(SOURCES_AS_JS, 'cli', 'create-starter', 'index.js'), ...args], { cwd: REPO_ROOT });
}
