import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { as, cleanup, emulator, frozen, receiver } from './platform-harness.js';
import { enrollMany, send } from './resources-harness.js';

// Each kind of outbound work gets its share of every scheduler run (docs/outbound.md): a backlog of due
// journey steps cannot hold back delivery progress, and so the webhooks it fires.
afterEach(cleanup);

const ENROLLMENTS = 3_000;
const STEP_DELAY_SECONDS = 60;

/** Enrollments whose (single) step has not run, read from the database: a read over HTTP would run some itself. */
function pendingSteps(db: Database.Database): number {
  const row = db
    .prepare(`SELECT count(*) AS n FROM docs WHERE kind = 'enrollments' AND json_extract(data, '$.status') = 'active'`)
    .get() as { n: number };
  return row.n;
}

describe('the outbound scheduler under a backlog of due journey steps', () => {
  it('moves a message to sent and posts its message.sent webhook while thousands of journey steps are still due', async () => {
    // A frozen real clock: only /_emulator/clock moves the emulator's, so every step falls due in one jump.
    const e = await emulator({ plan: 'enterprise', now: frozen });
    const api = as(e);
    const journey = await api.post('/v1/journeys').send({
      name: 'Backlog',
      trigger_name: 'backlog.due',
      steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: STEP_DELAY_SECONDS }],
    });
    expect(journey.status).toBe(201);
    expect((await api.post(`/v1/journeys/${journey.body.id as string}/status`).send({ status: 'active' })).status).toBe(
      200,
    );
    await enrollMany(e, 'backlog.due', ENROLLMENTS);
    expect(pendingSteps(e.db)).toBe(ENROLLMENTS);

    // The receiver notes, as each POST arrives, how many journey steps were still waiting.
    const pendingAtArrival: number[] = [];
    const hook = await receiver(() => {
      pendingAtArrival.push(pendingSteps(e.db));
      return 200;
    });
    const registered = await api.post('/v1/webhooks').send({ url: hook.url, events: ['message.sent'] });
    expect(registered.status).toBe(201);
    const sent = await send(e, `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`, { content: 'hi' });
    expect(sent.status).toBe(201);
    expect(sent.body.delivery_status).toBe('queued');

    // One jump: every journey step and the message's queued -> sent step fall due together.
    expect((await api.post('/_emulator/clock').send({ advance_seconds: 2 * STEP_DELAY_SECONDS })).status).toBe(200);
    await vi.waitFor(() => expect(hook.received).toHaveLength(1), { timeout: 60_000, interval: 5 });
    const delivery = JSON.parse(hook.received[0]!.body) as { event: string; data: { id: string } };
    expect(delivery).toMatchObject({ event: 'message.sent', data: { id: sent.body.id as string } });
    expect(pendingAtArrival[0]).toBeGreaterThan(0);

    // The journeys are not starved either: every step runs.
    await vi.waitFor(() => expect(pendingSteps(e.db)).toBe(0), { timeout: 60_000, interval: 20 });
  }, 120_000);
});
