import { REPO_ROOT, run, type RunResult } from '../support/run-command.js';

/** `create-starter` from source, exactly as a user would run it (stdin not a TTY, so no prompts). */
export function createStarter(args: string[]): Promise<RunResult> {
  return run(process.execPath, ['--import', 'tsx', 'src/cli/create-starter/index.ts', ...args], { cwd: REPO_ROOT });
}
