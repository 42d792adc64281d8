import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDelivery } from '../../src/testing/index.js';
import { HAS_CHROMIUM, launchBrowser } from '../support/browser.js';
import { installDir } from '../support/install-dir.js';
import {
  expectSuccess,
  freePort,
  REPO_ROOT,
  run,
  startInGroup,
  until,
  type RunResult,
} from '../support/run-command.js';
import { startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { packPackages, type PackedPackages } from './pack-packages.js';
import { compiledSqlite, seedPrebuiltSqlite, type SeededPrebuild } from './prebuilt-sqlite.js';
import { diskUsage, quickStartSnippet } from './quick-start-project.js';

/** A hand-written Express + better-sqlite3 + zod + pino app, installed the same way (issue 24's measurement). */
const BASELINE_BYTES = 90 * 1024 * 1024;
/** The quick start may install at most this much more than the baseline. */
const BOUND = 1.2;
/**
 * Bounds, so that a hang fails the step well inside CI's time; a step takes a fraction of its bound on an idle
 * 2-core machine (docs/packages.md has the figures). Packing builds the kit (tsc).
 */
const PACK_TIMEOUT_MS = 300_000;
const INSTALL_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 120_000;
/** `npm run dev` installs nothing, but starts the emulator, tsx and the app, and the sample customer writes in. */
const DEV_TIMEOUT_MS = 180_000;

const emulatorManifest = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/emulator/package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const kitManifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};
/** The README's `npm install -D` line of the quick start. */
const TYPESCRIPT_LINE = ['tsx', 'typescript', '@types/express', '@types/better-sqlite3', '@types/node'];
/** What only emulator users install: every library @convo-kit/emulator brings. */
const PARSERS = Object.keys(emulatorManifest.dependencies).filter((name) => !name.startsWith('@types/'));

let work: string;
let packed: PackedPackages;
let registry: LocalRegistry;
/**
 * The only setting a user's commands get changed: the registry, for every package and, should an npmrc name
 * another for our scope, for @convo-kit/* too; in the environment, so the npm processes that npm itself starts
 * (`npm create`'s `npm exec`, create-starter's `npm install`) get it as well. Plus a cache of the test's own.
 */
let userEnv: NodeJS.ProcessEnv;
let prebuild: SeededPrebuild;
let app: string;
/** The quick start's node_modules as `npm install convo-kit express` left it, before the README's `-D` line. */
let installed: { bytes: number; packages: number; unwanted: string[]; types: string[] };
let starter: string;
let created: RunResult;

/** How long each step of the set-up took, printed once it is done (docs/packages.md records them). */
const timings: string[] = [];
async function timed<T>(what: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await step();
  timings.push(`${what} ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return result;
}

beforeAll(
  async () => {
    work = installDir('registry-');
    // Verdaccio starts while the kit is packed; the three tarballs are published at once.
    const [pack, local] = await Promise.allSettled([
      timed('pack', () => packPackages(work, PACK_TIMEOUT_MS)),
      timed('Verdaccio up', async () => startLocalRegistry(join(work, 'registry'), await freePort())),
    ]);
    if (local.status === 'fulfilled') registry = local.value; // for afterAll to stop, whatever else failed
    if (pack.status === 'rejected') throw pack.reason;
    if (local.status === 'rejected') throw local.reason;
    packed = pack.value;
    if (!packed.built) timings.push('(dist/ was current: not built again)');
    userEnv = {
      npm_config_registry: registry.url,
      'npm_config_@convo-kit:registry': registry.url,
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_update_notifier: 'false',
      // The "Ok to proceed?" of `npm create`, which a person answers y at a terminal (npm assumes it under CI=true).
      npm_config_yes: 'true',
    };
    // The tarballs published, and better-sqlite3's binary put in the cache (it needs only Verdaccio), at once.
    [, prebuild] = await Promise.all([
      timed('three published', () =>
        Promise.all([packed.kit, packed.emulator, packed.create].map((tarball) => registry.publish(tarball))),
      ),
      timed('better-sqlite3 binary into the cache', () =>
        seedPrebuiltSqlite({
          dir: join(work, 'sqlite'),
          cache: join(work, 'npm-cache'),
          env: userEnv,
          range: kitManifest.dependencies['better-sqlite3']!,
          timeoutMs: INSTALL_TIMEOUT_MS,
        }),
      ),
    ]);

    app = join(work, 'quick-start');
    starter = join(work, 'starters');
    mkdirSync(app);
    mkdirSync(starter);
    // The README's quick start and `npm create convo-kit` at once: both mostly wait on the registry.
    [installed, created] = await Promise.all([
      timed('quick start install', async () => {
        expectSuccess(await npm(app, ['init', '-y']), 'npm init -y');
        expectSuccess(await npm(app, ['pkg', 'set', 'type=module']), 'npm pkg set type=module');
        expectSuccess(
          await npm(app, ['install', 'convo-kit', 'express'], INSTALL_TIMEOUT_MS),
          'npm install convo-kit express',
        );
        const lock = JSON.parse(readFileSync(join(app, 'node_modules', '.package-lock.json'), 'utf8')) as {
          packages: Record<string, unknown>;
        };
        const types = join(app, 'node_modules', '@types');
        const measured = {
          bytes: await diskUsage(join(app, 'node_modules')),
          packages: Object.keys(lock.packages).length,
          unwanted: [...PARSERS, 'pg', '@inquirer/prompts', 'cli-progress'].filter((name) =>
            existsSync(join(app, 'node_modules', name)),
          ),
          types: existsSync(types) ? readdirSync(types) : [],
        };
        // The README's second line, once measured: a TypeScript runner, and the types of the snippet and of
        // the kit's declarations (for the app.ts cases below; here, while npm create still installs).
        expectSuccess(await npm(app, ['install', '-D', ...TYPESCRIPT_LINE], INSTALL_TIMEOUT_MS), 'npm install -D');
        return measured;
      }),
      timed('npm create convo-kit', () =>
        npm(starter, ['create', 'convo-kit@latest', 'my-app', '--', '--template', 'crm-sync'], 2 * INSTALL_TIMEOUT_MS),
      ),
    ]);
    console.log(
      `quick start installed: ${(installed.bytes / 1024 / 1024).toFixed(1)} MB in ${installed.packages} packages ` +
        `(${(installed.bytes / BASELINE_BYTES).toFixed(2)} x the 90 MB baseline); better-sqlite3 ${prebuild.version} ` +
        `from the ${prebuild.from} binary; set-up: ${timings.join(', ')}`,
    );
  },
  // The pack, the seeding, then the longer of the two branches (npm create's two installs), and the rest.
  PACK_TIMEOUT_MS + 3 * INSTALL_TIMEOUT_MS + 2 * RUN_TIMEOUT_MS,
);

afterAll(async () => {
  await registry?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** npm as a user runs it, against the local registry (named on the command line too, so no npmrc decides). */
function npm(cwd: string, args: string[], timeoutMs = RUN_TIMEOUT_MS): Promise<RunResult> {
  return run('npm', ['--registry', registry.url, '--no-audit', '--no-fund', ...args], { cwd, timeoutMs, env: userEnv });
}

/** The `convo-kit` and `convo-kit/*` modules a project's sources and tests import, each once. */
function kitImports(project: string): string[] {
  const files = ['src', 'test'].flatMap((dir) =>
    readdirSync(join(project, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(project, dir, name)),
  );
  const imported = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(convo-kit(?:\/[\w/-]+)?)'/g)].map((m) => m[1]!),
  );
  return [...new Set(imported)].sort();
}

/** The `integrity` npm records for a tarball: what it installed is byte for byte what the test packed. */
function integrityOf(tarball: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
}

function lockedIntegrity(project: string, name: string): string | undefined {
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { integrity?: string }>;
  };
  return lock.packages[`node_modules/${name}`]?.integrity;
}

describe('the registry the installs use', () => {
  it('is the local one for every npm the test starts, our scope included', async () => {
    // Without --registry: what an npm started by npm (npm exec, create-starter's install) reads from its environment.
    for (const key of ['registry', '@convo-kit:registry']) {
      const got = await run('npm', ['config', 'get', key], { cwd: app, env: userEnv, timeoutMs: RUN_TIMEOUT_MS });
      expect(got.stdout.trim(), key).toBe(registry.url);
    }
  });

  it('served the tarballs the test packed, byte for byte', () => {
    expect(lockedIntegrity(app, 'convo-kit')).toBe(integrityOf(packed.kit));
    const project = join(starter, 'my-app');
    expect(lockedIntegrity(project, 'convo-kit')).toBe(integrityOf(packed.kit));
    expect(lockedIntegrity(project, '@convo-kit/emulator')).toBe(integrityOf(packed.emulator));
  });

  it("compiled nothing: better-sqlite3's binary came from npm's cache, as a prebuilt one does", () => {
    expect(compiledSqlite(app)).toBe(false);
    expect(compiledSqlite(join(starter, 'my-app'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(
      true,
    );
  });
});

/**
 * The delivery inspector (convo-kit's dist/) and the emulator console (@convo-kit/emulator's dist/), as the
 * installed packages serve them, in Chromium: their browser modules load under the pages' CSP, draw the
 * synced delivery and the sample conversation, and log no error. The pages' other tests run from src/.
 */
async function pagesRunFromTheBuild(inspectorUrl: string, devOutput: string): Promise<void> {
  const consoleUrl = /console:\s+(http:\/\/\S+)/.exec(devOutput)?.[1];
  expect(consoleUrl, devOutput).toBeDefined();
  const browser = await launchBrowser();
  try {
    const failures: string[] = [];
    const open = async (url: string) => {
      const page = await browser.newPage();
      page.on('pageerror', (error) => failures.push(`${url}: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') failures.push(`${url}: ${message.text()}`);
      });
      await page.goto(url);
      return page;
    };
    const inspector = await open(inspectorUrl);
    await expect.poll(() => inspector.locator('#rows').textContent(), { timeout: 15_000 }).toMatch(/message\.received/);
    const emulatorConsole = await open(consoleUrl!);
    await emulatorConsole.locator('#console').waitFor({ state: 'visible' });
    await expect
      .poll(() => emulatorConsole.locator('#panel-conversations tbody').textContent(), { timeout: 15_000 })
      .toContain('Dana Example');
    expect(failures).toEqual([]);
  } finally {
    await browser.close();
  }
}

describe('npm create convo-kit@latest my-app -- --template crm-sync, from the registry', () => {
  const project = () => join(starter, 'my-app');

  it('makes and installs the starter, depending on the published version', () => {
    expect(created.code, `${created.stdout}\n${created.stderr}`).toBe(0);
    const pkg = JSON.parse(readFileSync(join(project(), 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const { version } = kitManifest;
    expect(pkg.dependencies['convo-kit']).toBe(`^${version}`);
    expect(pkg.devDependencies['@convo-kit/emulator']).toBe(`^${version}`);
    expect(existsSync(join(project(), 'node_modules', 'convo-kit', 'dist', 'index.js'))).toBe(true);
  });

  it('npm run dev syncs the sample customer message into the CRM', async () => {
    const port = await freePort();
    const dev = startInGroup('npm', ['--registry', registry.url, 'run', 'dev', '--', '--emulator-port', '0'], {
      cwd: project(),
      env: { ...userEnv, PORT: String(port) },
    });
    try {
      await dev.untilOutput((text) => /convo-kit dev: /.test(text), DEV_TIMEOUT_MS);
      // The emulator's signed delivery of the sample customer's message, taken by the app and written to its CRM.
      await until(
        async () => {
          const contacts = await fetch(`http://127.0.0.1:${port}/api/contacts`).catch(() => undefined);
          return contacts?.ok === true && /Dana Example/.test(await contacts.text());
        },
        () => `a synced contact on the CRM:\n${dev.output}`,
        DEV_TIMEOUT_MS,
      );
      if (HAS_CHROMIUM) await pagesRunFromTheBuild(`http://127.0.0.1:${port}/_inspector`, dev.output);
    } finally {
      dev.stop();
      await dev.exited;
    }
  });

  // The starter's own suite runs from this checkout in `npm test` (test/starter/templates.test.ts, every
  // template, against dist/ through a file: link); what only an install from the registry can show is that the
  // published packages hold every module that suite and the app import, with the dependencies those need.
  it("loads, from the published packages, every convo-kit module the starter's code and tests import", async () => {
    const specifiers = kitImports(project());
    expect(specifiers).toEqual(
      expect.arrayContaining(['convo-kit/emulator', 'convo-kit/testing', 'convo-kit/receiver']),
    );
    // And the in-process emulator its tests start, as a test of theirs does (createEmulator with @convo-kit/emulator).
    const script = `for (const name of ${JSON.stringify(specifiers)}) await import(name);
const { createEmulator } = await import('convo-kit/emulator');
const emulator = await createEmulator({});
const server = await emulator.listen(0);
const answer = await fetch(server.url + '/_emulator');
await server.close();
await emulator.close();
console.log('loaded', ${specifiers.length}, 'emulator answered', answer.status);`;
    const loaded = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project(),
      timeoutMs: RUN_TIMEOUT_MS,
      env: userEnv,
    });
    expect(loaded.code, `${loaded.stdout}\n${loaded.stderr}`).toBe(0);
    expect(loaded.stdout.trim()).toBe(`loaded ${specifiers.length} emulator answered 200`);
  });
});

describe('npm install convo-kit express (the quick start), from the registry', () => {
  it(`installs at most ${BOUND} x the hand-written baseline`, () => {
    expect(installed.bytes).toBeLessThanOrEqual(BOUND * BASELINE_BYTES);
  });

  it("brings none of the emulator's parsers, no @types package and no prompt library", () => {
    expect(installed.unwanted).toEqual([]);
    expect(installed.types).toEqual([]);
  });

  it('runs no install script of its own', () => {
    const kit = JSON.parse(readFileSync(join(app, 'node_modules/convo-kit/package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => kit.scripts?.[name]);
    expect(lifecycle).toEqual([]);
    expect(existsSync(join(app, 'node_modules/convo-kit/dist/index.js'))).toBe(true);
  });

  it('`convo-kit emulator` says in one line what to install', async () => {
    const result = await run(join(app, 'node_modules/.bin/convo-kit'), ['emulator', '--port', '0'], {
      cwd: app,
      timeoutMs: RUN_TIMEOUT_MS,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'error: The emulator needs @convo-kit/emulator, which is not installed here: npm install --save-dev @convo-kit/emulator',
    );
  });

  it('the PostgreSQL store names pg, the package to install, in one line', async () => {
    const result = await run(
      join(app, 'node_modules/.bin/convo-kit'),
      ['deliveries', 'list', '--db', 'postgres://127.0.0.1:9/none'],
      { cwd: app, timeoutMs: RUN_TIMEOUT_MS },
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^error: The PostgreSQL store \(convo-kit\/store\/postgres\) needs pg, .*npm install pg/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe("the quick start's app.ts, as the README has it", () => {
  beforeAll(() => writeFileSync(join(app, 'app.ts'), quickStartSnippet()));

  it('without a secret, stops with one line saying how to set it', async () => {
    const result = await run(join(app, 'node_modules/.bin/tsx'), ['app.ts'], {
      cwd: app,
      timeoutMs: RUN_TIMEOUT_MS,
      env: { ...userEnv, CONVO_KIT_WEBHOOK_SECRET: '' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('CONVO_KIT_WEBHOOK_SECRET');
  });

  it('with the local secret the README makes, takes a signed delivery', async () => {
    const secret = `whsec_${'k'.repeat(32)}`;
    const port = await freePort();
    const server = startInGroup(join(app, 'node_modules/.bin/tsx'), ['app.ts'], {
      cwd: app,
      env: { ...userEnv, CONVO_KIT_WEBHOOK_SECRET: secret, PORT: String(port) },
    });
    try {
      await server.untilOutput((text) => text.includes(`:${port}`), RUN_TIMEOUT_MS);
      const delivery = signedDelivery({ secret, event: 'ticket.created' });
      const response = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      expect(response.status, server.output).toBe(200);
      await server.untilOutput((text) => text.includes('new ticket'), RUN_TIMEOUT_MS);
    } finally {
      server.stop('SIGTERM');
      await server.exited;
    }
  });

  it.each([true, false])('type-checks, strict, with skipLibCheck %s', async (skipLibCheck) => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck,
          types: ['node'],
        },
        include: ['app.ts'],
      }),
    );
    const check = await run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], { cwd: app, timeoutMs: RUN_TIMEOUT_MS });
    expect(check.code, `${check.stdout}\n${check.stderr}`).toBe(0);
  });
});
