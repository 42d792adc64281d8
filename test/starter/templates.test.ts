import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath, templateFiles } from '../../src/cli/create-starter/scaffold-project.js';
import { TEMPLATES } from '../../src/cli/create-starter/templates-catalog.js';
import { createEmulator } from '../../src/emulator/index.js';
import { installDir } from '../support/install-dir.js';
import { freePort, REPO_ROOT, run, startInGroup, until, type RunResult } from '../support/run-command.js';
import { createStarter } from './run-create-starter.js';

// Installing and testing a real project takes a while: npm install (~30 s) and the project's own suite.
const INSTALL_TIMEOUT_MS = 240_000;
const BUILD_TIMEOUT_MS = 300_000;

let dir: string;
/** What `create-starter` said for each template, and what one `npm install` for all three said. */
const scaffolded = new Map<string, Awaited<ReturnType<typeof createStarter>>>();
let install: RunResult;

/** What each starter shows on its port once `npm run dev` is up and the sample customer has written in. */
const DEV_PROBES = {
  'crm-sync': { path: '/api/contacts', shows: /Dana Example/ },
  'ticket-routing': { path: '/api/routing', shows: /./ },
  'custom-reply': { path: '/health', shows: /"answered":[1-9]/ },
} satisfies Record<(typeof TEMPLATES)[number]['name'], { path: string; shows: RegExp }>;

/**
 * What each starter's banner says about its webhook (or reply provider): run alone it is the user's to set
 * up; under `npm run dev`, convo-kit dev set it up for the run, and the banner must not ask for it again.
 */
const SETUP_LINES = {
  'crm-sync': {
    alone:
      /Webhook URL: +http:\/\/127\.0\.0\.1:\d+\/webhooks {2}\(register it with POST \/v1\/webhooks, events contact\.\* /,
    underDev:
      /Webhook URL: +http:\/\/127\.0\.0\.1:\d+\/webhooks {2}\(registered by convo-kit dev for this run, events contact\.\* /,
  },
  'ticket-routing': {
    alone:
      /Webhook URL: +http:\/\/127\.0\.0\.1:\d+\/webhooks {2}\(register it with POST \/v1\/webhooks, events ticket\.\* /,
    underDev:
      /Webhook URL: +http:\/\/127\.0\.0\.1:\d+\/webhooks {2}\(registered by convo-kit dev for this run, events ticket\.\* /,
  },
  'custom-reply': {
    alone:
      /Point a custom_reply provider at it: \{ "enabled": true, "config": \{ "url": "http:\/\/127\.0\.0\.1:\d+\/reply" \}/,
    underDev: /The custom_reply provider of int_\w+ points here \(set up by convo-kit dev for this run, AI on\)/,
  },
} satisfies Record<(typeof TEMPLATES)[number]['name'], { alone: RegExp; underDev: RegExp }>;

beforeAll(async () => {
  dir = installDir('starter-install-');
  // A `file:` dependency is a symlink to this checkout, whose exports point at dist/: build it once, so it matches src.
  // The build (tsc, CPU) runs while the projects are made and installed (mostly waiting on the registry): the
  // install links the checkout and reads none of dist/, which the tests below are the first to load.
  const [build] = await Promise.all([
    run('npm', ['run', 'build'], { cwd: REPO_ROOT, timeoutMs: BUILD_TIMEOUT_MS }),
    scaffoldAndInstall(),
  ]);
  for (const entry of [
    'index.js',
    'client/index.js',
    'receiver/index.js',
    'reply/index.js',
    'settings/index.js',
    'telemetry/index.js',
    'emulator/index.js',
    'store/index.js',
    'testing/index.js',
  ]) {
    expect(
      existsSync(join(REPO_ROOT, 'dist', entry)),
      `dist/${entry} after npm run build:\n${build.stdout}${build.stderr}`,
    ).toBe(true);
  }
}, BUILD_TIMEOUT_MS + INSTALL_TIMEOUT_MS);

/**
 * The three projects side by side, installed by one `npm install` as npm workspaces of a folder around them:
 * the packages they share (vitest, tsx, typescript, the kit's `file:` link) are fetched and linked once,
 * not three times. Each project resolves them from the folder's node_modules, as Node resolves any parent's.
 */
async function scaffoldAndInstall(): Promise<void> {
  for (const { name } of TEMPLATES)
    scaffolded.set(name, await createStarter([join(dir, name), '--template', name, '--no-install']));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'starters', private: true, workspaces: TEMPLATES.map((t) => t.name) }),
  );
  install = await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, timeoutMs: INSTALL_TIMEOUT_MS });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('runs as the installed bin (bin/create-starter.js, the built code)', async () => {
  const result = await run(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'create-starter.js'), join(dir, 'from-bin'), '--template', 'crm-sync', '--no-install'],
    { cwd: dir },
  );
  expect(result.code, result.stderr).toBe(0);
  expect(readdirSync(join(dir, 'from-bin'))).toContain('package.json');
  const refused = await run(process.execPath, [join(REPO_ROOT, 'bin', 'create-starter.js'), join(dir, 'from-bin')], {
    cwd: dir,
  });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('is not empty');
});

it('installs the starters with no edit, without building native modules of their own', () => {
  expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
  // The kit and the emulator package are links to this checkout (file:), so better-sqlite3 is the checkout's.
  expect(existsSync(join(dir, 'node_modules', 'better-sqlite3'))).toBe(false);
  expect(existsSync(join(dir, 'node_modules', 'convo-kit', 'dist', 'index.js'))).toBe(true);
  expect(existsSync(join(dir, 'node_modules', '@convo-kit', 'emulator', 'package.json'))).toBe(true);
});

describe.each(TEMPLATES.map((t) => t.name))('a project from the %s template', (name) => {
  const target = () => join(dir, name);

  it('is scaffolded as the template is, depending on this checkout', () => {
    const result = scaffolded.get(name)!;
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(target(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length).toBe(
      templateFiles(join(REPO_ROOT, 'templates', name)).map(projectPath).length,
    );
    const pkg = JSON.parse(readFileSync(join(target(), 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.dependencies['convo-kit']).toBe(`file:${REPO_ROOT.replace(/\/$/, '')}`);
    expect(pkg.devDependencies['@convo-kit/emulator']).toBe(`file:${join(REPO_ROOT, 'packages', 'emulator')}`);
  });

  it(
    'passes its own tests, which run against the emulator',
    async () => {
      const test = await run('npm', ['test'], {
        cwd: target(),
        timeoutMs: INSTALL_TIMEOUT_MS,
        env: { CI: '1' },
      });
      expect(test.code, `${test.stdout}\n${test.stderr}`).toBe(0);
      // vitest's own summary: every test passed ("Tests  14 passed (14)"); a failed or skipped one changes the line.
      // (Log lines of the app under test may say "failed" — e.g. a webhook attempt at shutdown — so only the summary counts.)
      expect(test.stdout).toMatch(/^\s*Tests\s+(\d+) passed \(\1\)\s*$/m);
      expect(test.stdout).toMatch(/^\s*Test Files\s+(\d+) passed \(\1\)\s*$/m);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'type-checks',
    async () => {
      const check = await run('npm', ['run', 'typecheck'], { cwd: target(), timeoutMs: INSTALL_TIMEOUT_MS });
      expect(check.code, `${check.stdout}\n${check.stderr}`).toBe(0);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'npm run dev starts the app against an emulator with no file edits, and a customer message reaches it',
    async () => {
      const port = await freePort();
      // Its own process group, so Ctrl-C reaches npm, convo-kit dev and the app as it does in a terminal.
      const dev = startInGroup('npm', ['run', 'dev', '--', '--emulator-port', '0'], {
        cwd: target(),
        env: { PORT: String(port) },
      });
      try {
        await until(
          async () => /convo-kit dev: /.test(dev.output),
          () => `the dev banner:\n${dev.output}`,
        );
        expect(dev.output).not.toContain('whsec_');
        // Every starter answers on its port; crm-sync also shows the sample customer `dev` wrote in as, and
        // custom-reply has answered that customer through the emulator's AI reply call.
        const probe = DEV_PROBES[name as keyof typeof DEV_PROBES];
        await until(
          async () => {
            const response = await fetch(`http://127.0.0.1:${port}${probe.path}`).catch(() => undefined);
            return response?.ok === true && probe.shows.test(await response.text());
          },
          () => `GET ${probe} on the app:\n${dev.output}`,
        );
        // Every URL the banner prints answers something useful: a page or JSON, or, where the service
        // POSTs (webhook, reply), the 405 that says so. None is a 404.
        const printed = [...dev.output.matchAll(/^ {2}(app|webhook|reply|emulator|console): +(http:\/\/\S+)/gm)];
        expect(printed.map((m) => m[1])).toEqual(expect.arrayContaining(['app', 'emulator', 'console']));
        for (const [, label, url] of printed) {
          const answer = await fetch(url!);
          expect(answer.status, `${label}: GET ${url}`).toBe(label === 'webhook' || label === 'reply' ? 405 : 200);
        }
        const setup = SETUP_LINES[name as keyof typeof SETUP_LINES];
        await until(
          async () => setup.underDev.test(dev.output),
          () => `the app's banner, under dev:\n${dev.output}`,
        );
        expect(dev.output).not.toMatch(setup.alone);
      } finally {
        dev.stop();
      }
      // npm itself dies of the SIGINT; what counts is that `convo-kit dev` closed the app and the emulator.
      await dev.exited;
      expect(dev.output).toContain('dev stopped');
      // The app closed by itself: tsx watch, signalled twice, would SIGKILL it mid-close.
      expect(dev.output).not.toMatch(/Force killing/);
      expect(
        await fetch(`http://127.0.0.1:${port}/`).then(
          () => 'answered',
          () => 'closed',
        ),
      ).toBe('closed');
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "npm start runs the app alone, and its banner says the webhook (or reply provider) is the user's to set up",
    async () => {
      const emulator = await createEmulator({});
      const server = await emulator.listen(0);
      const port = await freePort();
      const app = startInGroup('npm', ['start'], {
        cwd: target(),
        env: {
          CONVO_KIT_BASE_URL: server.url,
          CONVO_KIT_API_KEY: emulator.adminKey,
          CONVO_KIT_WEBHOOK_SECRET: `whsec_${'a'.repeat(32)}`,
          REPLY_SECRET: `rsec_${'b'.repeat(32)}`,
          CONVO_KIT_DEV_WEBHOOK_URL: undefined,
          CONVO_KIT_DEV_REPLY_INTEGRATION: undefined,
          PORT: String(port),
        },
      });
      try {
        const setup = SETUP_LINES[name as keyof typeof SETUP_LINES];
        await until(
          async () => setup.alone.test(app.output),
          () => `the app's banner, run alone:\n${app.output}`,
        );
        expect(app.output).not.toMatch(setup.underDev);
      } finally {
        app.stop();
        await app.exited;
        await server.close();
        await emulator.close();
      }
    },
    INSTALL_TIMEOUT_MS,
  );
});
