import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Enrollment } from '../../src/resources/index.js';
import { handlers } from '../../src/emulator/handlers/index.js';
import type { RouteHandlerTable } from '../../src/emulator/route-handler.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { as, cleanup, emulator, frozen } from './platform-harness.js';
import { enrollMany } from './resources-harness.js';

// Activating a paused journey is bounded work (docs/outbound.md): the request records the instant, and the
// outbound scheduler sends the held steps in its runs, however many enrollments the journey holds.
afterEach(cleanup);

const DAY = 86_400;
const ENROLLMENTS = 2_000;

/** Every enrollment's stored document, by id: what a request changed shows as a different document. */
function enrollmentDocs(db: Database.Database): Map<string, string> {
  const rows = db.prepare(`SELECT id, data FROM docs WHERE kind = 'enrollments'`).all() as {
    id: string;
    data: string;
  }[];
  return new Map(rows.map((r) => [r.id, r.data]));
}

describe('activating a journey that holds many enrollments', () => {
  it('answers without touching the enrollments, and the scheduler then runs every held step from the activation on', async () => {
    // The real setStatus handler; around it, which enrollments the request itself changed.
    let touchedInRequest = -1;
    const counting: RouteHandlerTable = {
      ...handlers,
      journeys: {
        ...handlers.journeys,
        setStatus: (req, ctx) => {
          const before = enrollmentDocs(ctx.db);
          const answer = handlers.journeys.setStatus(req, ctx);
          const after = enrollmentDocs(ctx.db);
          touchedInRequest = [...after].filter(([id, data]) => before.get(id) !== data).length;
          return answer;
        },
      },
    };
    // A frozen real clock: only /_emulator/clock moves the emulator's, so due times are exact.
    const e = await emulator({ plan: 'enterprise', now: frozen, handlers: counting });
    const api = as(e);
    const created = await api.post('/v1/journeys').send({
      name: 'Many',
      trigger_name: 'many.held',
      steps: [
        { template_id: SEED_IDS.templates.approved, delay_seconds: 60 },
        { template_id: SEED_IDS.templates.approved, delay_seconds: DAY },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api.post(`/v1/journeys/${id}/status`).send({ status: 'active' })).status).toBe(200);
    await enrollMany(e, 'many.held', ENROLLMENTS);
    expect((await api.post(`/v1/journeys/${id}/status`).send({ status: 'paused' })).status).toBe(200);
    // Two days pass while paused: every first step falls due and is held.
    expect((await api.post('/_emulator/clock').send({ advance_seconds: 2 * DAY })).status).toBe(200);
    const held = await api.get(`/v1/trigger/history?journey_id=${id}&limit=100`);
    // A full page, so that `every` below judges enrollments rather than an empty list.
    expect(held.body.data).toHaveLength(100);
    expect(held.body.data.every((en: Enrollment) => en.current_step === 0 && en.status === 'active')).toBe(true);

    const activated = await api.post(`/v1/journeys/${id}/status`).send({ status: 'active' });
    expect(activated.status).toBe(200);
    expect(activated.body.status).toBe('active');
    expect(touchedInRequest).toBe(0);
    const releasedAt = activated.body.updated_at as string;

    // The scheduler (and each history read, up to 20 steps) sends the held first steps; the second ones
    // are due a day after the activation, not after the first steps' original due time.
    const secondDue = new Date(Date.parse(releasedAt) + DAY * 1000).toISOString();
    const SENT = { timeout: 60_000, interval: 20 };
    let enrollments = await vi.waitFor(async () => {
      const all = await allEnrollments(api, id);
      expect(all.filter((en) => en.current_step === 0)).toHaveLength(0);
      return all;
    }, SENT);
    expect(enrollments).toHaveLength(ENROLLMENTS);
    expect(enrollments.every((en) => en.status === 'active' && en.next_step_at === secondDue)).toBe(true);
    const firstStep = await api.get(`/v1/trigger/status/${enrollments[0]!.action_ids[0]!}`);
    expect(['sent', 'delivered']).toContain(firstStep.body.status);

    // The clock moves a day: every second step runs and every enrollment completes.
    expect((await api.post('/_emulator/clock').send({ advance_seconds: DAY })).status).toBe(200);
    await vi.waitFor(async () => {
      const active = await api.get(`/v1/trigger/history?journey_id=${id}&status=active&limit=1`);
      expect(active.body.data).toHaveLength(0);
    }, SENT);
    enrollments = await allEnrollments(api, id);
    expect(enrollments).toHaveLength(ENROLLMENTS);
    expect(enrollments.every((en) => en.status === 'completed' && en.action_ids.length === 2)).toBe(true);
  }, 120_000);
});

/** Every enrollment of the journey, page by page over HTTP. */
async function allEnrollments(api: ReturnType<typeof as>, journeyId: string): Promise<Enrollment[]> {
  const out: Enrollment[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `/v1/trigger/history?journey_id=${journeyId}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
    const page = await api.get(query);
    expect(page.status).toBe(200);
    out.push(...(page.body.data as Enrollment[]));
    cursor = page.body.pagination.has_more ? (page.body.pagination.next_cursor as string) : null;
  } while (cursor !== null);
  return out;
}
