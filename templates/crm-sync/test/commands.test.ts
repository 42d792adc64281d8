import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './emulator-harness.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs one of the project's entry points as `npm start` / `npm run backfill` would, with only `env` set.
 * Asynchronously: the emulator the child talks to runs in this process and must keep answering.
 */
function runEntry(
  file: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(CONVO_KIT_|WINDOW_CLOSED_TEMPLATE_|INSPECTOR_TOKEN)/.test(key) && key !== 'CRM_DB_PATH',
    ),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: PROJECT_ROOT, env: { ...clean, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

describe('the commands', () => {
  it('npm start names every missing setting and the command that fixes it, in one line', async () => {
    const result = await runEntry('src/main.ts', {});
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim()).toBe(
      'Missing CONVO_KIT_BASE_URL, CONVO_KIT_API_KEY, CONVO_KIT_WEBHOOK_SECRET: run `npm run dev` (a local emulator sets them for you), or set them in .env (see .env.example).',
    );
  });

  it.each([
    [
      'a malformed fallback template setting',
      { WINDOW_CLOSED_TEMPLATE_ID: 'tpl_reply_waiting', WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"1":' },
      'WINDOW_CLOSED_TEMPLATE_VARIABLES is not valid JSON (expected an object such as {"1":"Convo Kit Shop"})',
    ],
    [
      'an INSPECTOR_TOKEN too short to guard the inspector, without printing it,',
      { INSPECTOR_TOKEN: 'hunter2' },
      'INSPECTOR_TOKEN: must be at least 16 characters (it has 7), e.g. from: openssl rand -hex 24',
    ],
  ])('npm start names %s in one line', async (_what, env, message) => {
    const result = await runEntry('src/main.ts', {
      CONVO_KIT_BASE_URL: 'http://127.0.0.1:9',
      CONVO_KIT_API_KEY: 'svc_live_unused',
      CONVO_KIT_WEBHOOK_SECRET: 'whsec_unused',
      ...env,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim()).toBe(message);
  });

  describe('npm run backfill', () => {
    let h: Harness;
    beforeEach(async () => {
      h = await startHarness();
    });
    afterEach(async () => h.close());

    it('names every missing setting in one line, as npm start does', async () => {
      const result = await runEntry('src/backfill-command.ts', {});
      expect(result.status).toBe(1);
      // Only what it uses: it receives no webhook, so it asks for no CONVO_KIT_WEBHOOK_SECRET.
      // And not `npm run dev`, which gives those to the app it runs, not to this script.
      expect(result.stderr.trim()).toBe(
        'Missing CONVO_KIT_BASE_URL, CONVO_KIT_API_KEY: set them in .env (see .env.example) or the environment.',
      );
    });

    it('fills the CRM database from the service', async () => {
      const result = await runEntry('src/backfill-command.ts', {
        CONVO_KIT_BASE_URL: h.config.baseUrl,
        CONVO_KIT_API_KEY: h.config.apiKey,
        CRM_DB_PATH: `${h.dir}/backfilled.db`,
      });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/Backfilled \d+ contacts and \d+ conversations into .*backfilled\.db/);
    });
  });
});
