import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { CliProcess, killAllCli, runCli } from './run-cli.js';

/** Without the `whsec_` prefix: only comparing against the configured secret can catch it. */
const SECRET = 'forward-redaction-secret-0123456789';
const TOKEN = 'tok_0123456789abcdef';
/** An app that refuses every delivery and echoes credentials in its answer, as a misconfigured one may. */
const ANSWER = `signature check with ${SECRET} failed; upstream token=${TOKEN}`;
const KEPT = 'answered 500: signature check with [redacted] failed; upstream token=[redacted]';

const dir = tempDir('forward-redaction');
const db = dir.file('deliveries.db');
let app: Server;
let appUrl: string;

beforeAll(async () => {
  app = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(ANSWER));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
});

afterAll(async () => {
  await killAllCli();
  app.closeAllConnections();
  await new Promise((resolve) => app.close(resolve));
  dir.remove();
});

function expectHidden(text: string): void {
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain(TOKEN);
}

describe("an app's failure answer that quotes a credential", () => {
  let deliveryId: string;

  it('convo-kit listen --forward-to prints each failed attempt and the dead delivery without it', async () => {
    const listen = new CliProcess(
      ['listen', '--port', '0', '--secret', SECRET, '--db', db, '--forward-to', appUrl, '--max-attempts', '2'],
      { timeoutMs: 60_000, env: { LOG_LEVEL: 'warn' } },
    );
    const [, url] = await listen.waitFor(/receiving at (http:\/\/\S+)/, 30_000);
    const sent = await runCli(['trigger', 'ticket.created', '--to', url!, '--secret', SECRET, '--json'], {
      timeoutMs: 60_000,
    });
    expect(sent.code).toBe(0);
    deliveryId = (JSON.parse(sent.stdout) as { delivery_id: string }).delivery_id;
    await listen.waitFor(/ dead /, 30_000);
    await listen.stop();
    expect(listen.stdout).toContain(`attempt 1/2: ${appUrl} ${KEPT}; retrying`);
    expect(listen.stdout).toMatch(new RegExp(`dead .*threw: \\S+ ${KEPT.replace(/[[\]]/g, '\\$&')}`));
    expectHidden(listen.stdout + listen.stderr);

    const show = await runCli(['deliveries', 'show', deliveryId, '--db', db, '--json']);
    expect((JSON.parse(show.stdout) as { last_error: string }).last_error).toContain(KEPT);
    expectHidden(show.stdout);
  }, 90_000);

  it('convo-kit replay --to prints and stores the failure without it', async () => {
    const replay = await runCli(['replay', '--id', deliveryId, '--db', db, '--to', appUrl, '--secret', SECRET], {
      timeoutMs: 60_000,
    });
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(KEPT);
    expectHidden(replay.stdout + replay.stderr);
    const show = await runCli(['deliveries', 'show', deliveryId, '--db', db, '--json']);
    expect((JSON.parse(show.stdout) as { last_error: string }).last_error).toBe(`replay: ${appUrl} ${KEPT}`);
  }, 90_000);
});
