import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromEnv, portSetting, readSettings, RECEIVER_APP_SETTINGS, SettingsError, wholeNumber } from './index.js';

const SETTINGS = {
  ...RECEIVER_APP_SETTINGS,
  port: portSetting(3100),
  rulesPath: fromEnv('RULES_PATH', z.string().default('./rules.json')),
  timeoutMs: fromEnv('TIMEOUT_MS', wholeNumber({ min: 100, max: 10_000 }).default(4000)),
};
const SERVICE = {
  CONVO_KIT_BASE_URL: 'http://127.0.0.1:4010',
  CONVO_KIT_API_KEY: 'svc_test_key',
  CONVO_KIT_WEBHOOK_SECRET: 'whsec_secret',
};

const TSX_LOADER = fileURLToPath(new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url));

const failure = (read: () => unknown): SettingsError => {
  try {
    read();
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('read the settings without an error');
};

describe('readSettings(shape, env)', () => {
  it('answers each setting by its key, with the defaults for what is unset, empty or blank', () => {
    expect(readSettings(SETTINGS, { ...SERVICE, PORT: '', RULES_PATH: '  ' })).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      apiKey: 'svc_test_key',
      webhookSecret: 'whsec_secret',
      deliveriesDbPath: './data/deliveries.db',
      inspectorToken: undefined,
      port: 3100,
      rulesPath: './rules.json',
      timeoutMs: 4000,
    });
    expect(readSettings(SETTINGS, { ...SERVICE, PORT: '0', TIMEOUT_MS: '250' })).toMatchObject({
      port: 0,
      timeoutMs: 250,
    });
  });

  it('names every missing variable at once, and the command that sets the service’s', () => {
    const error = failure(() => readSettings(SETTINGS, { CONVO_KIT_API_KEY: 'svc_test_key', PORT: 'x' }));
    expect(error.code).toBe('SETTINGS_MISSING');
    expect(error.variables).toEqual(['CONVO_KIT_BASE_URL', 'CONVO_KIT_WEBHOOK_SECRET']);
    expect(error.message).toBe(
      'Missing CONVO_KIT_BASE_URL, CONVO_KIT_WEBHOOK_SECRET: run `npm run dev` (a local emulator sets them for you), or set them in .env (see .env.example).',
    );
    const own = failure(() => readSettings({ crmUrl: fromEnv('CRM_URL', z.url()) }, {}));
    expect(own.message).toBe('Missing CRM_URL: set it in .env (see .env.example) or the environment.');
    // A script run by hand, not by dev: .env is the fix even for the service's variables.
    const script = failure(() =>
      readSettings(SETTINGS, { CONVO_KIT_API_KEY: 'svc_test_key' }, { startedByDev: false }),
    );
    expect(script.message).toBe(
      'Missing CONVO_KIT_BASE_URL, CONVO_KIT_WEBHOOK_SECRET: set them in .env (see .env.example) or the environment.',
    );
  });

  it('names every bad variable as `VARIABLE: what is wrong`, and no secret', () => {
    const error = failure(() =>
      readSettings(SETTINGS, {
        ...SERVICE,
        CONVO_KIT_BASE_URL: 'ftp://example.com',
        INSPECTOR_TOKEN: 'hunter2',
        PORT: '70000',
        TIMEOUT_MS: '1.5',
      }),
    );
    expect(error.code).toBe('SETTINGS_INVALID');
    expect(error.variables).toEqual(['CONVO_KIT_BASE_URL', 'INSPECTOR_TOKEN', 'PORT', 'TIMEOUT_MS']);
    expect(error.message).toBe(
      [
        'CONVO_KIT_BASE_URL: expected the URL to use https: or http:, got `ftp:`',
        'INSPECTOR_TOKEN: must be at least 16 characters (it has 7), e.g. from: openssl rand -hex 24',
        'PORT: must be a whole number from 0 to 65535, got "70000"',
        'TIMEOUT_MS: must be a whole number from 100 to 10000, got "1.5"',
      ].join('; '),
    );
    expect(error.message).not.toContain('hunter2');
  });

  it("takes the client's rule for CONVO_KIT_BASE_URL: plain http only to this machine, refused by name", () => {
    const error = failure(() => readSettings(SETTINGS, { ...SERVICE, CONVO_KIT_BASE_URL: 'http://crm.example.com/' }));
    expect(error.message).toBe(
      'CONVO_KIT_BASE_URL: expected the URL to use https: for a host other than this machine (the key would cross the network in clear), got `http://crm.example.com`',
    );
    expect(readSettings(SETTINGS, { ...SERVICE, CONVO_KIT_BASE_URL: 'http://127.0.0.1:4010/v1/' }).baseUrl).toBe(
      'http://127.0.0.1:4010',
    );
  });

  it('takes the inspector’s own rule for INSPECTOR_TOKEN: 16 characters pass', () => {
    expect(readSettings(SETTINGS, { ...SERVICE, INSPECTOR_TOKEN: 'a'.repeat(16) }).inspectorToken).toBe('a'.repeat(16));
  });
});

describe('readSettings(shape) in an app', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A script in `dir` that reads SETTINGS as an app's entry does, with settingsOrExit. */
  const runApp = (env: Record<string, string>) => {
    const module = fileURLToPath(new URL('./index.ts', import.meta.url));
    writeFileSync(
      join(dir, 'main.ts'),
      `import { portSetting, readSettings, RECEIVER_APP_SETTINGS, settingsOrExit } from ${JSON.stringify(module)};
const settings = settingsOrExit(() => readSettings({ key: RECEIVER_APP_SETTINGS.apiKey, port: portSetting(1) }));
console.log(JSON.stringify(settings), process.env.OTHER);`,
    );
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^(CONVO_KIT_API_KEY|PORT|OTHER)$/.test(key)),
    );
    // tsx by its path: the script's folder has no node_modules to find it in.
    return spawnSync(process.execPath, ['--import', pathToFileURL(TSX_LOADER).href, 'main.ts'], {
      cwd: dir,
      env: { ...clean, ...env },
      encoding: 'utf8',
    });
  };

  it('loads .env into the environment, where a variable already set wins', () => {
    writeFileSync(join(dir, '.env'), 'CONVO_KIT_API_KEY=from-file\nPORT=2\nOTHER=seen\n');
    const result = runApp({ PORT: '3' });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('{"key":"from-file","port":3} seen');
  });

  it('prints a missing setting as one line and exits 1 (settingsOrExit), with no stack trace', () => {
    const result = runApp({});
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Missing CONVO_KIT_API_KEY: run `npm run dev` (a local emulator sets it for you), or set it in .env (see .env.example).',
    );
  });
});
