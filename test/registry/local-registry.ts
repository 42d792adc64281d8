import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectSuccess, REPO_ROOT, run } from '../support/run-command.js';

/** Verdaccio starts in a few seconds; a loaded machine may take a minute. */
const START_TIMEOUT_MS = 120_000;
const PUBLISH_TIMEOUT_MS = 120_000;

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`: the only setting a user's commands get changed. */
  url: string;
  /** Publishes a packed tarball here, and nowhere else (a userconfig of its own, naming this registry). */
  publish(tarball: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A Verdaccio on 127.0.0.1 with its storage in `dir`. Our three package names are served only from what is
 * published here (never proxied), so the test installs this build even where the public registry has a package
 * of the same name; every other package is proxied to the registry npm is configured with, so installs work.
 */
export async function startLocalRegistry(dir: string, port: number): Promise<LocalRegistry> {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const upstream = (await run('npm', ['config', 'get', 'registry'], { cwd: dir, timeoutMs: 30_000 })).stdout.trim();
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(dir, 'htpasswd')}`,
      'uplinks:',
      '  upstream:',
      `    url: ${upstream}`,
      '    timeout: 60s',
      'packages:',
      ...['convo-kit', '@convo-kit/*', 'create-convo-kit'].flatMap((name) => [
        `  '${name}':`,
        '    access: $all',
        '    publish: $authenticated',
      ]),
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    proxy: upstream',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'node_modules/verdaccio/bin/verdaccio'), '--config', config, '--listen', `127.0.0.1:${port}`],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await waitUntilUp(url, child, () => log);

  // A user of its own (Verdaccio's htpasswd registration), whose token only the publishing commands get.
  const added = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'publisher', password: 'local-registry-only' }),
  });
  const { token } = (await added.json()) as { token?: string };
  if (!added.ok || !token) throw new Error(`Verdaccio refused the publishing user (${added.status}): ${log}`);
  const userconfig = join(dir, 'publisher.npmrc');
  writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);

  return {
    url,
    async publish(tarball) {
      expectSuccess(
        await run('npm', ['publish', tarball, '--registry', url, '--userconfig', userconfig, '--tag', 'latest'], {
          cwd: dir,
          timeoutMs: PUBLISH_TIMEOUT_MS,
        }),
        `npm publish ${tarball}`,
      );
    },
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (const deadline = Date.now() + START_TIMEOUT_MS; Date.now() < deadline; ) {
    if (child.exitCode !== null) break;
    const ping = await fetch(`${url}-/ping`).catch(() => undefined);
    if (ping?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`Verdaccio did not answer at ${url}: ${log()}`);
}
