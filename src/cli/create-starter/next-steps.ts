import { relative } from 'node:path';

/** What to run after scaffolding, in order; `cd` is relative to where the user is. */
export function nextSteps(targetDir: string, installed: boolean, cwd: string = process.cwd()): string[] {
  const where = relative(cwd, targetDir) || '.';
  return [
    ...(where === '.' ? [] : [`cd ${where.includes(' ') ? JSON.stringify(where) : where}`]),
    ...(installed ? [] : ['npm install']),
    'npm run dev         # a local emulator, the webhook registered, your app in watch mode',
    'npm test            # the tests run against an in-process emulator',
    'npm start           # against the service: set CONVO_KIT_* in .env first (see .env.example)',
  ];
}
