import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, type DeliveryStatus } from '../../src/store/index.js';
import { recordBody, recordSigned, startTargetReceiver, tempDir, waitUntil, type TargetReceiver } from './helpers.js';
import { killAllCli, runCli, startScript } from './run-cli.js';

const SECRET = 'whsec_replay_test_secret_0123456789';
const RECEIVER_MODULE = fileURLToPath(new URL('../../src/receiver/index.ts', import.meta.url));
const dir = tempDir('replay');
const targets: TargetReceiver[] = [];

afterEach(async () => {
  await killAllCli();
  await Promise.all(targets.splice(0).map((t) => t.close()));
});
afterAll(() => dir.remove());

async function statuses(db: string): Promise<Record<string, DeliveryStatus>> {
  const result = await runCli(['deliveries', 'list', '--db', db, '--json']);
  expect(result.code).toBe(0);
  return Object.fromEntries(
    (JSON.parse(result.stdout) as { id: string; status: DeliveryStatus }[]).map((r) => [r.id, r.status]),
  );
}

describe('convo-kit replay --handlers', () => {
  // The user's handlers: they fail until a flag file says the bug is fixed.
  const files = {
    handlers: dir.file('handlers.ts'),
    app: dir.file('app.ts'),
    map: dir.file('handler-map.ts'),
    db: dir.file('app.db'),
    fixed: dir.file('fixed.flag'),
    handled: dir.file('handled.log'),
  };
  const env = {
    APP_DB: files.db,
    APP_SECRET: SECRET,
    FIXED_FLAG: files.fixed,
    HANDLED_LOG: files.handled,
    LOG_LEVEL: 'silent',
  };

  beforeAll(() => {
    // Like the user's own ESM project.
    writeFileSync(dir.file('package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      files.handlers,
      `import { appendFileSync, existsSync } from 'node:fs';
import { createReceiver } from ${JSON.stringify(RECEIVER_MODULE)};
export const receiver = createReceiver({ secret: process.env.APP_SECRET!, dbPath: process.env.APP_DB!, maxAttempts: 2, backoff: () => 50, pollIntervalMs: 100 });
receiver.on('*', ({ deliveryId, event }) => {
  if (!existsSync(process.env.FIXED_FLAG!)) throw new Error('CRM is down');
  appendFileSync(process.env.HANDLED_LOG!, event + ' ' + deliveryId + '\\n');
});
export default receiver;
`,
    );
    writeFileSync(
      files.app,
      `import { createServer } from 'node:http';
import receiver from './handlers.ts';
const server = createServer(receiver.listener).listen(0, '127.0.0.1', () => {
  console.log('app listening on http://127.0.0.1:' + (server.address() as { port: number }).port + '/webhooks');
});
await receiver.start();
process.once('SIGINT', async () => { server.close(); await receiver.close(); process.exit(0); });
`,
    );
    writeFileSync(
      files.map,
      `import { appendFileSync } from 'node:fs';
export const handlers = { 'ticket.*': ({ deliveryId }: { deliveryId: string }) => { appendFileSync(process.env.HANDLED_LOG!, 'map ' + deliveryId + '\\n'); } };
`,
    );
  });

  it('runs dead deliveries through the fixed handlers and marks them done', async () => {
    const app = startScript(files.app, { env, timeoutMs: 120_000 });
    const [, url] = await app.waitFor(/app listening on (\S+)/, 30_000);
    const ids: string[] = [];
    for (const event of ['ticket.created', 'message.received']) {
      const sent = await runCli(['trigger', event, '--to', url!, '--secret', SECRET, '--json'], { timeoutMs: 60_000 });
      expect(sent.code).toBe(0);
      ids.push((JSON.parse(sent.stdout) as { delivery_id: string }).delivery_id);
    }
    await waitUntil(
      async () => {
        const now = await statuses(files.db);
        return ids.every((id) => now[id] === 'dead') ? true : undefined;
      },
      'both deliveries are dead',
      60_000,
    );
    expect((await app.stop()).code).toBe(0);

    const dead = await runCli(['deliveries', 'list', '--db', files.db, '--status', 'dead']);
    expect(dead.stdout).toMatch(/A handler for ticket\.created threw: CRM is down/);

    // Still broken: the replay fails, says why, and leaves them dead.
    const broken = await runCli(['replay', '--status', 'dead', '--handlers', files.handlers], {
      env,
      tsx: true,
      timeoutMs: 60_000,
    });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/replayed 2 to the handlers in .*handlers\.ts: 0 succeeded, 2 failed/);
    expect(broken.stdout).toMatch(
      /failed {2}ticket\.created {2}\S+ {2}A handler for ticket\.created threw: CRM is down/,
    );
    expect(Object.values(await statuses(files.db))).toEqual(['dead', 'dead']);

    writeFileSync(files.fixed, 'fixed');
    const dry = await runCli(['replay', '--status', 'dead', '--handlers', files.handlers, '--dry-run'], {
      env,
      tsx: true,
      timeoutMs: 60_000,
    });
    expect(dry.stdout).toMatch(/dry run: 2 deliveries would be replayed/);
    expect(existsSync(files.handled)).toBe(false);

    const fixed = await runCli(['replay', '--status', 'dead', '--handlers', files.handlers, '--json'], {
      env,
      tsx: true,
      timeoutMs: 60_000,
    });
    expect(fixed.code).toBe(0);
    expect(JSON.parse(fixed.stdout)).toMatchObject({ ran: 2, succeeded: 2, failed: 0 });
    expect(readFileSync(files.handled, 'utf8').trim().split('\n')).toEqual([
      `ticket.created ${ids[0]}`,
      `message.received ${ids[1]}`,
    ]);
    expect(await statuses(files.db)).toEqual({ [ids[0]!]: 'done', [ids[1]!]: 'done' });

    // A handlers object runs over --db; --id picks a delivery whatever its status.
    const byMap = await runCli(['replay', '--id', ids[0]!, '--handlers', files.map, '--db', files.db], {
      env,
      tsx: true,
      timeoutMs: 60_000,
    });
    expect(byMap.code).toBe(0);
    expect(byMap.stdout).toMatch(/replayed 1 to .*: 1 succeeded, 0 failed/);
    expect(readFileSync(files.handled, 'utf8')).toContain(`map ${ids[0]}`);
  }, 240_000);
});

describe('convo-kit replay --handlers and the step journal', () => {
  it('keeps journaled steps by default (the step does not run again); --rerun-steps clears them first', async () => {
    const db = dir.file('steps.db');
    const log = dir.file('steps.log');
    const store = createSqliteStore({ path: db });
    // An event this version does not know reaches `*` with its data as it came.
    await recordSigned(store, { id: 'dlv_steps', event: 'billing.paid', secret: SECRET, receivedAt: Date.now() });
    await store.close();
    const map = dir.file('step-handlers.mjs');
    writeFileSync(
      map,
      `import { appendFileSync } from 'node:fs';
export const handlers = { '*': async ({ step }) => { await step('charge', () => { appendFileSync(process.env.STEP_LOG, 'charged\\n'); return 1; }); } };
`,
    );
    const replay = (...extra: string[]) =>
      runCli(['replay', '--id', 'dlv_steps', '--handlers', map, '--db', db, ...extra], {
        env: { STEP_LOG: log },
        timeoutMs: 60_000,
      });
    const charges = () => readFileSync(log, 'utf8').trim().split('\n').length;
    expect((await replay()).code).toBe(0);
    expect(charges()).toBe(1);
    expect((await replay()).code).toBe(0);
    expect(charges()).toBe(1);
    const rerun = await replay('--rerun-steps');
    expect(rerun.code).toBe(0);
    expect(charges()).toBe(2);
    const misuse = await runCli([
      'replay',
      '--id',
      'dlv_steps',
      '--to',
      'http://127.0.0.1:9/x',
      '--secret',
      SECRET,
      '--rerun-steps',
      '--db',
      db,
    ]);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toMatch(/--rerun-steps only applies with --handlers/);
  }, 240_000);
});

describe('convo-kit replay --handlers with a handlers object', () => {
  it('prints each failure on its own line, without the receiver log beside it unless LOG_LEVEL asks', async () => {
    const db = dir.file('object.db');
    const store = createSqliteStore({ path: db });
    // Data that fails its event's schema: the delivery fails before any handler, as a bad payload does.
    await recordSigned(store, {
      id: 'dlv_object_bad',
      event: 'ticket.created',
      secret: SECRET,
      receivedAt: Date.now(),
    });
    await store.close();
    const map = dir.file('object-handlers.mjs');
    writeFileSync(map, "export const handlers = { 'ticket.*': () => {} };\n");
    const args = ['replay', '--status', 'all', '--handlers', map, '--db', db];
    const quiet = await runCli(args, { env: { LOG_LEVEL: undefined }, timeoutMs: 60_000 });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toMatch(
      /failed +ticket\.created +dlv_object_bad +ticket\.created data does not match its schema/,
    );
    expect(quiet.stderr).not.toContain('"level"');
    const logged = await runCli(args, { env: { LOG_LEVEL: 'error' }, timeoutMs: 60_000 });
    expect(logged.code).toBe(1);
    expect(logged.stderr).toContain('"level":50');
  }, 120_000);
});

describe('convo-kit replay --handlers with a module that cannot run', () => {
  const db = dir.file('unrunnable.db');
  const modules = dir.file('unrunnable');
  const write = (name: string, source: string) => {
    writeFileSync(`${modules}/${name}`, source);
    return `${modules}/${name}`;
  };

  beforeAll(async () => {
    mkdirSync(modules);
    writeFileSync(`${modules}/package.json`, JSON.stringify({ type: 'module' }));
    const store = createSqliteStore({ path: db });
    await recordSigned(store, {
      id: 'dlv_unrunnable',
      event: 'ticket.created',
      secret: SECRET,
      receivedAt: Date.now(),
    });
    await store.close();
  });

  const HANDLERS = `export const handlers = { 'ticket.created': () => {} };\n`;
  it.each([
    ['is missing', () => `${modules}/missing.mjs`, 3, /No handlers module at \S+missing\.mjs\.$/],
    ['is a directory', () => modules, 2, /\S+unrunnable is a directory; --handlers takes the module file itself\.$/],
    [
      'throws on import',
      () => write('throws.mjs', `throw new Error('CRM client misconfigured');\n`),
      1,
      /Cannot load the handlers module \S+throws\.mjs: CRM client misconfigured$/,
    ],
    [
      'throws a non-Error on import',
      () => write('throws-string.mjs', `throw 'no CRM_URL';\n`),
      1,
      /Cannot load the handlers module \S+throws-string\.mjs: it threw 'no CRM_URL'$/,
    ],
    [
      'rejects a promise nobody awaits',
      () => write('stray-rejection.mjs', HANDLERS + `Promise.reject(new Error('CRM login failed'));\n`),
      1,
      /Uncaught error while running the handlers module \S+stray-rejection\.mjs \(outside any handler\): CRM login failed$/,
    ],
    [
      'throws from a timer',
      () => write('stray-throw.mjs', HANDLERS + `setTimeout(() => { throw new Error('CRM poll failed'); }, 0);\n`),
      1,
      /Uncaught error while running the handlers module \S+stray-throw\.mjs \(outside any handler\): CRM poll failed$/,
    ],
    [
      'exports nothing',
      () => write('empty.mjs', ''),
      2,
      /\S+empty\.mjs exports neither a receiver nor a handlers object \(it exports nothing\)\.$/,
    ],
    [
      'exports something else',
      () => write('other.mjs', 'export default 42;\nexport const crm = {};\n'),
      2,
      /\S+other\.mjs exports neither a receiver nor a handlers object \(it exports crm, default\)\.$/,
    ],
    [
      'exports a handlers object with a non-function',
      () => write('not-a-function.mjs', `export const handlers = { 'ticket.created': 'syncTicket' };\n`),
      2,
      /its `handlers` export has a string under 'ticket\.created', not a function\.$/,
    ],
  ])(
    'a module that %s: one line naming it and why, a non-zero exit, no stack trace',
    async (_what, make, code, line) => {
      const result = await runCli(['replay', '--status', 'all', '--handlers', make(), '--db', db]);
      const errors = result.stderr.split('\n').filter((l) => l.startsWith('error:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(line);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stderr).not.toContain('Node.js v');
      expect(result.code).toBe(code);
    },
  );
});

/** Replays every stored delivery of `db` to `url`, signed with SECRET. */
const replayAllTo = (db: string, url: string, ...more: string[]) =>
  runCli(['replay', '--db', db, '--status', 'all', '--to', url, '--secret', SECRET, ...more]);

describe('convo-kit replay --to', () => {
  const db = dir.file('relay.db');
  const HOUR_MS = 3_600_000;
  const ids = ['dlv_replay_ticket', 'dlv_replay_message'];

  // Stored an hour ago: their original signatures are far outside any receiver's tolerance now.
  beforeAll(async () => {
    const store = createSqliteStore({ path: db });
    for (const [i, event] of ['ticket.created', 'message.received'].entries()) {
      await recordSigned(store, { id: ids[i]!, event, secret: SECRET, receivedAt: Date.now() - HOUR_MS + i });
    }
    await store.close();
  });

  it('re-signs each delivery with a fresh timestamp and the same id, accepted by a second receiver', async () => {
    const second = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('second.db') });
    targets.push(second);
    const result = await replayAllTo(db, second.url, '--concurrency', '2', '--rate', '50');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`replayed 2 to ${second.url}: 2 succeeded, 0 failed`);
    for (const id of ids) expect((await second.receiver.store.get(id))?.id).toBe(id);
    expect(await statuses(db)).toEqual({ [ids[0]!]: 'done', [ids[1]!]: 'done' });

    const untouched = async () => {
      const store = createSqliteStore({ path: db, pruneDoneAfterMs: null });
      try {
        return { row: await store.get(ids[1]!), attempts: await store.attempts(ids[1]!) };
      } finally {
        await store.close();
      }
    };
    const before = await untouched();
    const renamed = await runCli([
      'replay',
      '--db',
      db,
      '--id',
      ids[0]!,
      '--to',
      second.url,
      '--secret',
      SECRET,
      '--new-ids',
      '--json',
    ]);
    // What it did not re-run is exactly as it was.
    expect(await untouched()).toEqual(before);
    expect(renamed.code).toBe(0);
    const { results } = JSON.parse(renamed.stdout) as { results: { id: string; sent_as: string; status: number }[] };
    expect(results).toEqual([expect.objectContaining({ id: ids[0], status: 200, outcome: 'done' })]);
    expect(results[0]!.sent_as).toMatch(/^dlv_/);
    expect(results[0]!.sent_as).not.toBe(ids[0]);
    expect((await second.receiver.store.get(results[0]!.sent_as))?.event).toBe('ticket.created');
  }, 120_000);

  it('sends the stored bytes as they are, secret-looking fields included (the signature covers them)', async () => {
    const secretsDb = dir.file('secrets.db');
    const store = createSqliteStore({ path: secretsDb });
    const stored = await recordBody(
      store,
      { id: 'dlv_replay_secrets', secret: SECRET, receivedAt: Date.now() },
      { event: 'ticket.created', data: { metadata: { api_token: 'tok_kept', hook: 'whsec_kept' } } },
    );
    await store.close();
    const second = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('secrets-second.db') });
    targets.push(second);
    const result = await replayAllTo(secretsDb, second.url);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/tok_kept|whsec_kept/);
    const received = await second.receiver.store.get('dlv_replay_secrets');
    expect(Buffer.from(received!.body).equals(stored)).toBe(true);
  }, 60_000);

  it('lists what a dry run would send without asking for a secret, and sends nothing', async () => {
    const second = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('dry.db') });
    targets.push(second);
    const noSecret = { CONVO_KIT_WEBHOOK_SECRET: undefined };
    const dry = await runCli(['replay', '--db', db, '--id', ids[1]!, '--to', second.url, '--dry-run'], {
      env: noSecret,
    });
    expect([dry.code, dry.stderr]).toEqual([0, '']);
    expect(dry.stdout).toContain(
      `dry run: 1 delivery would be replayed to ${second.url}; nothing was sent or changed.`,
    );
    expect(await second.receiver.store.list()).toMatchObject({ data: [] });
    // Sending does sign, so without the dry run the secret is still required.
    const wet = await runCli(['replay', '--db', db, '--id', ids[1]!, '--to', second.url], { env: noSecret });
    expect(wet.code).toBe(2);
    expect(wet.stderr).toMatch(/pass --secret whsec_/);
  }, 60_000);

  it('says which deliveries --limit kept: the newest, and how to reach the others (running again would not)', async () => {
    const dry = await runCli([
      'replay',
      '--db',
      db,
      '--status',
      'all',
      '--limit',
      '1',
      '--to',
      'http://127.0.0.1:9/x',
      '--dry-run',
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(ids[1]);
    expect(dry.stdout).not.toContain(ids[0]);
    expect(dry.stderr).toContain('this run takes the newest 1 of them (oldest first)');
    expect(dry.stderr).toContain('raise --limit or set --until');
    expect(dry.stderr).not.toContain('Run again');
  });

  it('marks a delivery dead with the answer when the URL refuses it, and exits 1', async () => {
    const second = await startTargetReceiver({ secret: 'whsec_some_other_secret', dbPath: dir.file('other.db') });
    targets.push(second);
    const result = await runCli(['replay', '--db', db, '--id', ids[1]!, '--to', second.url, '--secret', SECRET]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /failed {2}message\.received {2}dlv_replay_message {2}.* answered 401: .*SIGNATURE_MISMATCH/,
    );
    expect(result.stdout).toMatch(/0 succeeded, 1 failed/);
    const shown = await runCli(['deliveries', 'show', ids[1]!, '--db', db, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      status: 'dead',
      last_error: expect.stringMatching(/^replay: .* answered 401/),
    });
    expect((await statuses(db))[ids[0]!]).toBe('done');
  }, 60_000);
});
