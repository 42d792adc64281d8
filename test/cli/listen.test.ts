import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/events/index.js';
import { INSPECTOR_PATH } from '../../src/receiver/index.js';
import { createSqliteStore } from '../../src/store/index.js';
import {
  escapeRegExp,
  freePort,
  mapLimit,
  startTargetReceiver,
  tempDir,
  waitUntil,
  type TargetReceiver,
} from './helpers.js';
import { CliProcess, killAllCli, runCli } from './run-cli.js';
import { signedDelivery } from '../../src/testing/index.js';
import { heldPost } from '../receiver/held-post.js';
import { expectEnvelopedRefusal, rawExchange, UNPARSABLE_REQUESTS } from '../support/raw-http.js';

const SECRET = 'whsec_listen_test_secret_0123456789';
const dirs: ReturnType<typeof tempDir>[] = [];
const targets: TargetReceiver[] = [];

afterEach(async () => {
  await killAllCli();
  await Promise.all(targets.splice(0).map((t) => t.close()));
  for (const dir of dirs.splice(0)) dir.remove();
});

async function startListen(...extra: string[]): Promise<{ listen: CliProcess; url: string; db: string }> {
  const dir = tempDir('listen');
  dirs.push(dir);
  const db = dir.file('deliveries.db');
  const listen = new CliProcess(['listen', '--port', '0', '--secret', SECRET, '--db', db, ...extra], {
    timeoutMs: 170_000,
  });
  const [, url] = await listen.waitFor(/receiving at (http:\/\/\S+)/, 30_000);
  return { listen, url: url!, db };
}

async function trigger(event: string, url: string): Promise<string> {
  const result = await runCli(['trigger', event, '--to', url, '--secret', SECRET, '--json'], { timeoutMs: 60_000 });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const sent = JSON.parse(result.stdout) as {
    status: number;
    event: string;
    delivery_id: string;
    payload: { event: string };
  };
  expect(sent).toMatchObject({ status: 200, event, payload: { event } });
  return sent.delivery_id;
}

describe('convo-kit listen', () => {
  it('verifies, stores and prints every one of the 14 events that trigger sends', async () => {
    const { listen, url, db } = await startListen();
    const ids = await mapLimit(EVENT_NAMES, 2, (event) => trigger(event, url));
    for (const [i, event] of EVENT_NAMES.entries()) {
      await listen.waitFor(new RegExp(`Z  ${escapeRegExp(event)}  ${escapeRegExp(ids[i]!)}  stored 200`));
    }
    const stopped = await listen.stop('SIGINT');
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/stopped/);
    const listed = await runCli(['deliveries', 'list', '--db', db, '--json']);
    const rows = JSON.parse(listed.stdout) as { id: string; event: string; status: string }[];
    expect(rows.map((r) => r.event).sort()).toEqual([...EVENT_NAMES].sort());
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(ids));
    expect(rows.every((r) => r.status === 'done')).toBe(true);
  }, 180_000);

  it('serves the delivery inspector beside the webhook path, to this machine only', async () => {
    const { listen, url } = await startListen();
    const [, inspector] = await listen.waitFor(/inspector: (http:\/\/\S+)/);
    // Where the starters mount it too: one exported path.
    expect(new URL(inspector!).pathname).toBe(INSPECTOR_PATH);
    const id = await trigger('ticket.created', url);
    await listen.waitFor(new RegExp(`${escapeRegExp(id)}  stored 200`));
    const listed = (await (await fetch(`${inspector}/api/deliveries?event=ticket.*`)).json()) as {
      data: { id: string }[];
    };
    expect(listed.data.map((d) => d.id)).toEqual([id]);
    // The address exactly as printed, no slash after it: the page's own requests still go under it.
    const page = await fetch(inspector!);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(id);
    expect(html).toContain(`"base":"${INSPECTOR_PATH}"`);
  });

  it('prints a rejected delivery with its reason and stores nothing for it', async () => {
    const { listen, url, db } = await startListen('--json');
    const bad = await runCli([
      'trigger',
      'ticket.created',
      '--to',
      url,
      '--secret',
      'whsec_not_the_secret',
      '--delivery-id',
      'dlv_forged',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^401 ticket\.created dlv_forged/);
    const [line] = await listen.waitFor(/\{.*"outcome":"rejected".*\}/);
    expect(JSON.parse(line)).toMatchObject({
      event: 'ticket.created',
      delivery_id: 'dlv_forged',
      outcome: 'rejected',
      status: 401,
    });
    expect(JSON.parse(line).detail).toMatch(/^SIGNATURE_MISMATCH/);
    await listen.stop();
    const shown = await runCli(['deliveries', 'show', 'dlv_forged', '--db', db]);
    expect(shown.code).toBe(3);
  }, 120_000);

  it('answers what the headers decide before reading a body, and bounds the bodies in flight, as a receiver does', async () => {
    const { listen, url } = await startListen('--json');
    const { headers } = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const MiB = 1024 * 1024;
    const body = Buffer.alloc(MiB, 'x');
    // A declared 1 MiB body that is never sent: the answer can only come from the headers.
    const malformed = heldPost(url, { ...headers, 'x-service-signature': 'sha256=zz' }, body, 0);
    expect(await malformed.answer).toMatchObject({ status: 401, headers: { connection: 'close' } });
    const [line] = await listen.waitFor(/\{.*"outcome":"rejected".*\}/);
    expect(JSON.parse(line).detail).toMatch(/^SIGNATURE_MALFORMED/);
    // Well-formed headers pass to the body: 32 bodies of 1 MiB fill the default 32 MiB bound, the next waits.
    const held = Array.from({ length: 32 }, () => heldPost(url, headers, body, 1024));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const over = heldPost(url, headers, body, 0);
    const answer = await over.answer;
    expect([answer.status, answer.body.error?.code, answer.headers['retry-after']]).toEqual([
      503,
      'BODIES_IN_FLIGHT',
      '1',
    ]);
    held.forEach((h) => h.finish());
    // The bodies are not what was signed: each is read whole, then refused.
    expect((await Promise.all(held.map((h) => h.answer))).map((a) => a.status)).toEqual(Array(32).fill(401));
  }, 60_000);

  it("answers what Node cannot parse in the receiver's JSON envelope, prints it, and keeps serving", async () => {
    const { listen, url } = await startListen('--json');
    const { port } = new URL(url);
    const cases = UNPARSABLE_REQUESTS;
    for (const unparsable of cases) expectEnvelopedRefusal(await rawExchange(Number(port), unparsable[1]), unparsable);
    await waitUntil(
      async () => ((listen.stdout.match(/"outcome":"rejected"/g)?.length ?? 0) === cases.length ? true : undefined),
      'a printed line per refused request',
      10_000,
    );
    const printed = listen.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { status: number; detail: string });
    expect(printed.map((p) => [p.status, p.detail.split(':')[0]])).toEqual(cases.map((c) => [c[2], c[3]]));
    // The listener still takes a real delivery.
    await trigger('ticket.created', url);
  }, 60_000);

  it('prints, for a dead delivery, a replay command that works once the secret is filled in', async () => {
    const dir = tempDir('app');
    dirs.push(dir);
    const app = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('app.db') });
    targets.push(app);
    const { listen, url } = await startListen('--forward-to', app.url);
    // Data that fails its schema is dead at once (README: kept as dead, never refused at the door).
    const sent = await runCli(
      ['trigger', 'ticket.created', '--to', url, '--secret', SECRET, '--set', 'priority=someday', '--no-validate'],
      { timeoutMs: 60_000 },
    );
    expect(sent.code).toBe(0);
    const [, command] = await listen.waitFor(/ dead .*\(replay it with `convo-kit (replay [^`]+)`\)/);
    expect(command).toContain(`--to ${app.url} --secret whsec_…`);
    const replayed = await runCli(command!.replace('whsec_…', SECRET).split(' '));
    expect([replayed.code, replayed.stdout]).toEqual([0, expect.stringContaining('1 succeeded, 0 failed')]);
    expect(app.handled).toEqual([]); // the app keeps it as dead too: its schema is the same
    expect((await app.receiver.store.list()).data).toHaveLength(1);
  }, 120_000);

  it("shows a receiver's refusal as its code and message, not its JSON: trigger's answer and a forward's reason", async () => {
    const dir = tempDir('app');
    dirs.push(dir);
    const app = await startTargetReceiver({
      secret: 'whsec_another_apps_secret_0123456789',
      dbPath: dir.file('app.db'),
    });
    targets.push(app);
    const { listen, url } = await startListen('--forward-to', app.url, '--max-attempts', '1');
    const refused = await runCli([
      'trigger',
      'ticket.created',
      '--to',
      url,
      '--secret',
      'whsec_not_the_listeners_0123456789',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^401 ticket\.created dlv_\S+ -> \S+\nSIGNATURE_MISMATCH: No signature matched\./);
    await trigger('ticket.created', url);
    const [line] = await listen.waitFor(/.* dead .*/);
    expect(line).toContain(`${app.url} answered 401: SIGNATURE_MISMATCH: No signature matched.`);
    expect(refused.stdout + listen.stdout).not.toContain('{"error"');
  }, 60_000);

  it('closes gracefully on a Ctrl-C sent the moment it says it is receiving', async () => {
    // Three times: without a listener installed before that line, the signal's default action killed it about half the time.
    for (let run = 0; run < 3; run++) {
      const { listen } = await startListen();
      const stopped = await listen.stop();
      expect([stopped.code, stopped.signal, stopped.stderr]).toEqual([0, null, expect.stringContaining('stopped')]);
    }
  }, 60_000);

  it('forwards to an app that is down, retries, and delivers everything once it is up', async () => {
    const port = await freePort();
    const { listen, url, db } = await startListen(
      '--forward-to',
      `http://127.0.0.1:${port}/hook`,
      '--retry-delay',
      '200',
    );
    const events = ['ticket.created', 'message.received', 'contact.opted_out'];
    const ids = await mapLimit(events, 2, (event) => trigger(event, url));
    for (const id of ids)
      await listen.waitFor(
        new RegExp(`${escapeRegExp(id)}  forward failed  attempt \\d+/20: POST \\S+ got no answer: ECONNREFUSED`),
      );

    const dir = tempDir('app');
    dirs.push(dir);
    const app = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('app.db'), port });
    targets.push(app);
    for (const id of ids) await listen.waitFor(new RegExp(`${escapeRegExp(id)}  forwarded 200`), 30_000);
    await waitUntil(
      async () => (app.handled.length >= ids.length ? true : undefined),
      'the app handled every delivery',
    );
    expect(new Set(app.handled)).toEqual(new Set(ids));
    await listen.stop();

    // Same delivery ids and the same bytes, re-signed with the same secret (the app's receiver verified them).
    const relay = createSqliteStore({ path: db, pruneDoneAfterMs: null });
    try {
      for (const id of ids) {
        const stored = await relay.get(id);
        expect(stored?.status).toBe('done');
        expect(Buffer.from((await app.receiver.store.get(id))!.body).equals(Buffer.from(stored!.body))).toBe(true);
      }
    } finally {
      await relay.close();
    }
  }, 180_000);

  it('names --host when it cannot listen there (an address of another machine), not a busy port', async () => {
    const dir = tempDir('listen');
    dirs.push(dir);
    // 192.0.2.1 is TEST-NET-1: never an address of this machine, so binding fails without any lookup.
    const result = await runCli(
      ['listen', '--host', '192.0.2.1', '--port', '0', '--secret', SECRET, '--db', dir.file('d.db')],
      { timeoutMs: 30_000 },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Cannot listen on 192.0.2.1:0');
    expect(result.stderr).toContain('Check --host');
    expect(result.stderr).not.toContain('stop what runs there');
  });
});
