import { afterEach, describe, expect, it } from 'vitest';
import { signedDelivery } from '../../src/testing/index.js';
import { killAllCli } from '../cli/run-cli.js';
import { PG_HOW_TO, PG_URL, pgTestSchema } from '../store/pg-schema.js';
import { tempDir } from '../store/temp-dir.js';
import { SECRET, sleep } from './harness.js';
import { startInboxProcess, type InboxProcess } from './inbox-processes.js';

// Real receiver processes on one inbox, with the default lease (8 s, renewed every 2 s) and handlers
// that run longer than a lease (10 s).
const HANDLER_MS = 10_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await killAllCli();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function post(to: InboxProcess, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const res = await fetch(to.url, { method: 'POST', headers: d.headers, body: d.body });
    expect(res.status).toBe(200);
    ids.push(d.deliveryId);
  }
  return ids;
}

async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await sleep(50))
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
}

const inboxes: [string, () => { kind: 'sqlite' | 'postgres'; where: string }][] = [
  [
    'SQLite',
    () => {
      const dir = tempDir();
      cleanups.push(dir.remove);
      return { kind: 'sqlite', where: dir.path('inbox.db') };
    },
  ],
];
if (PG_URL)
  inboxes.push([
    'PostgreSQL',
    () => {
      const schema = pgTestSchema();
      cleanups.push(schema.drop);
      return { kind: 'postgres', where: schema.name };
    },
  ]);
else it.skip(`lease handover between PostgreSQL processes ${PG_HOW_TO}`);

describe.each(inboxes)('two receiver processes on one inbox (%s)', (_name, inbox) => {
  it("never run one delivery at once, and a killed one's deliveries start elsewhere once their leases lapse", async () => {
    const where = inbox();
    const [a, b] = await Promise.all([
      startInboxProcess({ ...where, handlerMs: HANDLER_MS }),
      startInboxProcess({ ...where, handlerMs: HANDLER_MS }),
    ]);
    const starts = () => [...a!.lines('start'), ...b!.lines('start')];

    // Handlers outlive the lease: renewal keeps each row with its worker, so nothing starts twice.
    const first = [...(await post(a!, 3)), ...(await post(b!, 3))];
    await until(() => [...a!.lines('end'), ...b!.lines('end')].length >= 6, 'the first six ended', 40_000);
    expect(starts().sort()).toEqual([...first].sort());

    // Kill the process running the most handlers; the other takes its rows once their lease lapses.
    const second = await post(a!, 4);
    await until(() => second.every((id) => starts().includes(id)), 'the next four started', 20_000);
    const victim = a!.lines('start').filter((id) => second.includes(id)).length >= 2 ? a! : b!;
    const survivor = victim === a ? b! : a!;
    const orphans = victim.lines('start').filter((id) => second.includes(id) && !victim.lines('end').includes(id));
    expect(orphans.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    await victim.process.stop('SIGKILL');
    // One lease (8 s) plus one poll (1 s) on an idle machine; the bound only keeps a hang from running on.
    await until(() => orphans.every((id) => survivor.lines('start').includes(id)), 'the orphans restarted', 60_000);
    const handover = Date.now() - killedAt;
    console.log(
      `${_name}: a SIGKILLed process's ${orphans.length} running deliveries restarted elsewhere after ${handover} ms`,
    );
    // Their leases were still live for a while: not taken at once (load only lengthens this).
    expect(handover).toBeGreaterThan(2000);
    // Each ran once in each process at most: never in two live ones at the same time.
    for (const id of second) expect(survivor.lines('start').filter((s) => s === id).length).toBeLessThanOrEqual(1);
  }, 150_000);
});
