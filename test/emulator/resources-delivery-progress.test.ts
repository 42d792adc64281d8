import { afterEach, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { capturingLogger } from '../receiver/harness.js';
import { as, cleanup, emulator, frozen } from './platform-harness.js';
import { send, SEED_IDS, subscribe } from './resources-harness.js';

afterEach(cleanup);

const statusOf = (e: Emulator, id: string) =>
  (
    e.db
      .prepare(`SELECT json_extract(data, '$.delivery_status') AS s FROM docs WHERE kind = 'messages' AND id = ?`)
      .get(id) as { s: string }
  ).s;

const inFlight = (e: Emulator) =>
  (e.db.prepare(`SELECT id FROM docs WHERE kind = 'delivery_progress'`).all() as { id: string }[]).map((r) => r.id);

async function sendText(e: Emulator, content: string): Promise<string> {
  const res = await send(e, '/v1/messages', { conversation_id: SEED_IDS.delivered.conversation, content });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** Lets the scheduler's sweep (not a read's catch-up) run every step due `seconds` from now. */
async function sweepAfter(e: Emulator, seconds: number): Promise<void> {
  expect((await as(e).post('/_emulator/clock').send({ advance_seconds: seconds })).status).toBe(200);
  await expect.poll(() => inFlight(e), { interval: 20 }).toEqual([]);
}

// Each row is a stored message its delivery step cannot move, written into the emulator's own database.
it.each([
  ['names a channel the event catalog does not know', `json_set(data, '$.channel', 'carrier_pigeon')`, 'TypeError'],
  ['is JSON5 text SQLite accepts but JSON.parse refuses', `substr(data, 1, length(data) - 1) || ',}'`, 'SyntaxError'],
])(
  'drops a message whose stored row %s, warns once naming it, and still delivers the others',
  async (_, corrupted, errorType) => {
    const log = capturingLogger();
    const e = await emulator({ now: frozen, logger: log.logger });
    const hooks = await subscribe(e);
    const before = await sendText(e, 'first');
    const bad = await sendText(e, 'second');
    const after = await sendText(e, 'third');
    const changed = e.db.prepare(`UPDATE docs SET data = ${corrupted} WHERE kind = 'messages' AND id = ?`).run(bad);
    expect(changed.changes).toBe(1);

    await sweepAfter(e, 5);

    // The bad step's write (queued -> sent) was rolled back alone; the steps before and after it in the page stand.
    expect(statusOf(e, bad)).toBe('queued');
    for (const id of [before, after])
      expect((await as(e).get(`/v1/messages/${id}`)).body.delivery_status).toBe('delivered');
    // Webhooks post concurrently, so they may arrive in either order.
    expect((await hooks.named('message.sent')).map((m) => m.id).sort()).toEqual([before, after].sort());
    const warnings = () => log.records().filter((r) => r.level === 40 && r.message_id === bad);
    expect(warnings()).toEqual([
      expect.objectContaining({
        msg: 'delivery step failed: the message keeps its status and leaves the sweep',
        err: expect.objectContaining({ type: errorType }) as unknown,
      }),
    ]);

    // Dropped, not retried: a later send is delivered by later sweeps and the bad one is never tried again.
    const later = await sendText(e, 'fourth');
    await sweepAfter(e, 5);
    expect(statusOf(e, later)).toBe('delivered');
    expect(statusOf(e, bad)).toBe('queued');
    expect(warnings()).toHaveLength(1);
    expect(log.records().filter((r) => Number(r.level) >= 40 && r.message_id !== bad)).toEqual([]);
  },
);
