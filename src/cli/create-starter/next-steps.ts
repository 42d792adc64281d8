import { relative } from 'node:path';

/** What to run after scaffolding, in order; `cd` is relative to where the user is. */
export function nextSteps(targetDir: string, installed: boolean, cwd: string = process.cwd()): string[] {
  const where = relative(cwd, targetDir) || '.';
  return [
    ...(where === '.' ? [] : [`cd ${where.includes(' ') ? JSON.stringify(where) : where}`]),
    ...(installed ? [] : ['npm install']),
    'npm test            # the tests run against an in-process emulator',
    'cp .env.example .env  # then set the service URL, API key and webhook secret',
    'npm start',
  ];
}
