import { relative } from 'node:path';

/** `path` as the user types it from `cwd`: relative, unless the absolute path is shorter (`/tmp/app`, not `../../../tmp/app`). */
function shellPath(path: string, cwd: string): string {
  const fromCwd = relative(cwd, path) || '.';
  const shortest = fromCwd.length <= path.length ? fromCwd : path;
  return shortest.includes(' ') ? JSON.stringify(shortest) : shortest;
}

/**
 * What to run after scaffolding, in order. `unbuiltKit` is a convo-kit checkout the project depends on
 * (`file:<checkout>`) that has no dist/ yet: its bin and exports are the compiled files (README, Starters).
 */
export function nextSteps(
  targetDir: string,
  installed: boolean,
  cwd: string = process.cwd(),
  unbuiltKit?: string,
): string[] {
  const where = shellPath(targetDir, cwd);
  const kit = unbuiltKit === undefined ? undefined : shellPath(unbuiltKit, cwd);
  return [
    ...(kit === undefined
      ? []
      : [
          `npm run build${kit === '.' ? '' : ` --prefix ${kit}`}   # the convo-kit checkout it depends on is not built`,
        ]),
    ...(where === '.' ? [] : [`cd ${where}`]),
    ...(installed ? [] : ['npm install']),
    'npm run dev         # a local emulator, the webhook registered, your app in watch mode',
    'npm test            # the tests run against an in-process emulator',
    'npm start           # against the service: set CONVO_KIT_* in .env first (see .env.example)',
  ];
}
