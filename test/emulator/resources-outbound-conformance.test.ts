import { afterEach, describe, expect, it, vi } from 'vitest';
import { openapi, openapiPath } from '../../src/api/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { PLAN_QUOTAS } from '../../src/emulator/domain/usage/plan-quotas.js';
import { as, cleanup, emulator, frozen } from './platform-harness.js';
import { enrollMany, SEED_IDS, subscribe } from './resources-harness.js';

// The outbound routes (templates, journeys, triggers, business events, campaigns) held to the spec and
// decisions where an earlier probe found them wrong; docs/outbound.md describes the behaviour.
afterEach(cleanup);

const HOUR_MS = 3600_000;

/** An active journey of the seed's approved template: by default one step, an hour after the trigger. */
async function activeJourney(
  e: Emulator,
  triggerName: string,
  steps = [{ template_id: SEED_IDS.templates.approved, delay_seconds: 3600 }],
): Promise<{ id: string }> {
  const created = await as(e).post('/v1/journeys').send({ name: triggerName, trigger_name: triggerName, steps });
  expect(created.status).toBe(201);
  await as(e).post(`/v1/journeys/${created.body.id}/status`).send({ status: 'active' }).expect(200);
  return created.body as { id: string };
}

/** A campaign of the seed's approved template (it needs {{1}} and {{2}}) to one deliverable contact. */
const campaign = (fields: object = {}) => ({
  name: 'Campaign',
  template_id: SEED_IDS.templates.approved,
  audience: { contact_ids: [SEED_IDS.delivered.contact] },
  variables: { '1': 'A-1', '2': 'today' },
  ...fields,
});

/** `instant` written in the local time of a UTC offset of `hours` (e.g. -5 -> `…T03:00:00.000-05:00`). */
function withOffset(instant: number, hours: number): string {
  const local = new Date(instant + hours * HOUR_MS).toISOString().slice(0, -1);
  const sign = hours < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}

describe('timestamps a request sends', () => {
  it('reads a scheduled_at with a UTC offset as the instant it names, answers it in UTC and starts the campaign then', async () => {
    const e = await emulator({ now: frozen });
    const due = e.clock.now() + HOUR_MS;
    const created = await as(e)
      .post('/v1/campaigns')
      .send(campaign({ scheduled_at: withOffset(due, -5) }))
      .expect(201);
    expect(created.body.scheduled_at).toBe(new Date(due).toISOString());
    // Half-way there: its local time (five hours earlier as text) must not make it due.
    e.clock.advance(1800);
    expect((await as(e).get(`/v1/campaigns/${created.body.id}`).expect(200)).body.status).toBe('scheduled');
  });

  it('answers an occurred_at with a UTC offset in UTC', async () => {
    const e = await emulator({ now: frozen });
    const at = e.clock.now() - HOUR_MS;
    const fired = await as(e)
      .post('/v1/events')
      .send({ event: 'order.shipped', phone: '+14155557001', occurred_at: withOffset(at, 2) })
      .expect(202);
    expect(fired.body.created_at).toBe(new Date(at).toISOString());
  });

  it('refuses a time whose UTC instant is past year 9999, naming the field', async () => {
    const e = await emulator({ now: frozen });
    const res = await as(e)
      .post('/v1/campaigns')
      .send(campaign({ scheduled_at: '9999-12-31T23:59:59-23:59' }))
      .expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'scheduled_at' }] });
  });
});

describe('a campaign whose variables leave a template variable unset', () => {
  const incomplete = campaign({ variables: { '1': 'A-1' } });

  it('is refused at send, naming variables.<n>, and nothing is sent', async () => {
    const e = await emulator({ now: frozen });
    const created = await as(e).post('/v1/campaigns').send(incomplete).expect(201);
    const res = await as(e).post(`/v1/campaigns/${created.body.id}/send`).expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'variables.2' }] });
    const after = (await as(e).get(`/v1/campaigns/${created.body.id}`).expect(200)).body;
    expect(after).toMatchObject({ status: 'draft', stats: { recipients: 0, sent: 0, failed: 0 } });
  });

  it('is refused when scheduled, at creation or by PATCH; a draft may stay incomplete until then', async () => {
    const e = await emulator({ now: frozen });
    const scheduled_at = new Date(e.clock.now() + HOUR_MS).toISOString();
    const res = await as(e)
      .post('/v1/campaigns')
      .send({ ...incomplete, scheduled_at })
      .expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'variables.2' }] });
    const draft = await as(e).post('/v1/campaigns').send(incomplete).expect(201);
    const patched = await as(e).patch(`/v1/campaigns/${draft.body.id}`).send({ scheduled_at }).expect(400);
    expect(patched.body.error.details).toEqual([expect.objectContaining({ path: 'variables.2' })]);
    await as(e)
      .patch(`/v1/campaigns/${draft.body.id}`)
      .send({ scheduled_at, variables: { '1': 'A-1', '2': 'today' } })
      .expect(200);
  });
});

describe('template variables in a body', () => {
  it.each(['{{0}}', '{{100}}', '{{01}}', '{{name}}', '{{}}'])(
    'refuses a body with %s, which no variables value can fill, naming body',
    async (placeholder) => {
      const e = await emulator({ now: frozen });
      const res = await as(e)
        .post('/v1/templates')
        .send({ name: 'bad_placeholder', category: 'UTILITY', body: `Order ${placeholder} shipped` })
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body' }] });
      expect(res.body.error.message).toContain(placeholder);
    },
  );

  it('takes {{1}} to {{99}}, spaces inside the braces too, and lists them as variables', async () => {
    const e = await emulator({ now: frozen });
    const res = await as(e)
      .post('/v1/templates')
      .send({ name: 'good_placeholders', category: 'UTILITY', body: 'Order {{1}} ships {{ 2 }}, ref {{99}}' })
      .expect(201);
    expect(res.body.variables).toEqual(['1', '2', '99']);
  });
});

describe('a POST route that takes no body', () => {
  const routes = [
    `/v1/templates/${SEED_IDS.templates.draft}/submit`,
    `/v1/templates/${SEED_IDS.templates.approved}/validate`,
  ];

  it.each(routes)('%s refuses a body with fields, naming them, and changes nothing', async (path) => {
    const e = await emulator({ now: frozen });
    const id = path.split('/')[3]!;
    const before = (await as(e).get(`/v1/templates/${id}`).expect(200)).body;
    const res = await as(e).post(path).send({ category: 'UTILITY' }).expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.body.error.message).toContain('category');
    expect((await as(e).get(`/v1/templates/${id}`).expect(200)).body).toEqual(before);
  });

  it('refuses a campaign send with a body, and accepts none, an empty one or {}', async () => {
    const e = await emulator({ now: frozen });
    const { id } = (await as(e).post('/v1/campaigns').send(campaign()).expect(201)).body;
    await as(e).post(`/v1/campaigns/${id}/send`).send({ scheduled_at: null }).expect(400);
    await as(e).post(`/v1/campaigns/${id}/send`).send([]).expect(400);
    await as(e).post(`/v1/templates/${SEED_IDS.templates.draft}/submit`).expect(200);
    await as(e)
      .post(`/v1/templates/${SEED_IDS.templates.approved}/validate`)
      .set('Content-Type', 'application/json')
      .expect(200);
    await as(e).post(`/v1/campaigns/${id}/send`).send({}).expect(201);
  });
});

describe('DELETE /v1/trigger/enrollments', () => {
  it('refuses a query parameter it does not know, rather than stop every enrollment of the journey', async () => {
    const e = await emulator({ now: frozen });
    const journey = await activeJourney(e, 'stop');
    await as(e)
      .post('/v1/trigger')
      .send({ trigger_name: 'stop', phone: '+14155557001', metadata: { '1': 'A-1', '2': 'today' } })
      .expect(201);
    // `phnoe` for `phone`: read as journey_id alone, it would stop every phone's enrollment.
    const res = await as(e).delete(`/v1/trigger/enrollments?journey_id=${journey.id}&phnoe=%2B14155557999`).expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.body.error.message).toContain('phnoe');
    const history = (await as(e).get(`/v1/trigger/history?journey_id=${journey.id}`).expect(200)).body;
    expect(history.data.map((x: { status: string }) => x.status)).toEqual(['active']);
  });
});

describe('a phone in a query string', () => {
  it('names an unencoded + (read as a space) as the likely mistake', async () => {
    const e = await emulator({ now: frozen });
    const res = await as(e).get('/v1/trigger/history?phone=+14155557001').expect(400);
    expect(res.body.error.details).toEqual([
      expect.objectContaining({ path: 'phone', message: expect.stringContaining('%2B') }),
    ]);
    await as(e).get('/v1/trigger/history?phone=%2B14155557001').expect(200);
  });
});

describe('the journey quota', () => {
  it('is 422 INVALID_STATE naming the way to reuse a journey, since there is no journey delete', async () => {
    const e = await emulator({ now: frozen, plan: 'dev_hobby' });
    const quota = PLAN_QUOTAS.dev_hobby.journeys!;
    const create = (n: number) =>
      as(e)
        .post('/v1/journeys')
        .send({
          name: `J${n}`,
          trigger_name: `j${n}`,
          steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: 0 }],
        });
    for (let n = 0; n < quota; n++) await create(n).expect(201);
    const res = await create(quota).expect(422);
    expect(res.body.error).toMatchObject({ code: 'INVALID_STATE', details: [{ quota }] });
    expect(res.body.error.message).toContain('PUT /v1/journeys/:id/steps');
    // The spec reads the journey quota and remaining capacity from GET /v1/trigger/limits.
    const limits = (await as(e).get('/v1/trigger/limits').expect(200)).body;
    expect(limits.journeys).toEqual({ quota, used: quota, remaining: 0 });
  });
});

describe('a JSON body that is not an object', () => {
  it.each(['null', '"text"', '42', 'true'])(
    'answers %s with "expected a JSON object", not "not valid JSON"',
    async (raw) => {
      const e = await emulator({ now: frozen });
      const res = await as(e).post('/v1/trigger').set('Content-Type', 'application/json').send(raw).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.message).toMatch(/expected a JSON object/);
    },
  );
});

describe('null for an optional sender on creation', () => {
  it('takes integration_id and pinned_integration_id null as not given, as they read back', async () => {
    const e = await emulator({ now: frozen });
    const created = await as(e)
      .post('/v1/campaigns')
      .send(campaign({ integration_id: null }))
      .expect(201);
    expect(created.body.integration_id).toBeNull();
    const template = await as(e)
      .post('/v1/templates')
      .send({ name: 'unpinned', category: 'UTILITY', body: 'Your order {{1}} shipped', pinned_integration_id: null })
      .expect(201);
    expect(template.body.pinned_integration_id).toBeNull();
  });
});

describe('a filled template or automation over the message content bound', () => {
  it('refuses a template send whose variables make the message over 4096 characters, and sends nothing', async () => {
    const e = await emulator({ now: frozen });
    const body = Array.from({ length: 5 }, (_, i) => `{{${i + 1}}}`).join(' ');
    const template = (
      await as(e)
        .post('/v1/templates')
        .send({ name: 'five_values', category: 'UTILITY', body, pinned_integration_id: SEED_IDS.phoneMain })
        .expect(201)
    ).body;
    await as(e).post(`/_emulator/templates/${template.id}/review`).send({ status: 'approved' }).expect(200);
    const before = (await as(e).get('/v1/messages?limit=1').expect(200)).body.data[0].id;
    const variables = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [String(i + 1), 'x'.repeat(1000)]));
    const res = await as(e)
      .post(`/v1/templates/${template.id}/send`)
      .send({ to: '14155551234', variables })
      .expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'variables' }] });
    expect(res.body.error.message).toContain('4096');
    expect((await as(e).get('/v1/messages?limit=1').expect(200)).body.data[0].id).toBe(before);
  });
});

describe('the codes the OpenAPI document lists for these routes', () => {
  const doc = openapi();
  const listed = (method: string, path: string): string =>
    String((doc.paths[openapiPath(path)]?.[method.toLowerCase()] as { description: string }).description);

  const inAnHour = new Date(frozen() + HOUR_MS).toISOString();
  type Case = [method: 'post' | 'patch', route: string, path: string, body: object | string, code: string];
  const cases: Case[] = [
    [
      'post',
      '/v1/templates',
      '/v1/templates',
      { name: 'p', category: 'UTILITY', body: 'x', pinned_integration_id: SEED_IDS.photo },
      'ACCOUNT_MISMATCH',
    ],
    [
      'post',
      '/v1/templates',
      '/v1/templates',
      { name: 'p', category: 'UTILITY', body: 'x', pinned_integration_id: 'int_nope' },
      'NOT_FOUND',
    ],
    ['post', '/v1/campaigns', '/v1/campaigns', campaign({ integration_id: SEED_IDS.photo }), 'ACCOUNT_MISMATCH'],
    ['post', '/v1/campaigns/:id/send', '/v1/campaigns/:id/send', '', 'AMBIGUOUS_INTEGRATION'],
    ['patch', '/v1/campaigns/:id', '/v1/campaigns/:id', { scheduled_at: inAnHour }, 'AMBIGUOUS_INTEGRATION'],
    [
      'post',
      '/v1/campaigns',
      '/v1/campaigns',
      campaign({ template_id: SEED_IDS.templates.approvedUnpinned, scheduled_at: inAnHour }),
      'AMBIGUOUS_INTEGRATION',
    ],
    ['patch', '/v1/campaigns/:id', '/v1/campaigns/:id', { integration_id: SEED_IDS.photo }, 'ACCOUNT_MISMATCH'],
    [
      'post',
      '/v1/templates/:id/submit',
      `/v1/templates/${SEED_IDS.templates.draft}/submit`,
      'text',
      'UNSUPPORTED_MEDIA_TYPE',
    ],
  ];

  it.each(cases.map(([method, route, path, body, code]) => ({ method, route, path, body, code })))(
    '$method $route: the emulator answers $code, and the document lists it',
    async ({ method, route, path, body, code }) => {
      const e = await emulator({ now: frozen });
      // An unpinned template: with two active numbers, its campaign cannot resolve a sender.
      const draft = (
        await as(e)
          .post('/v1/campaigns')
          .send(
            campaign({ template_id: SEED_IDS.templates.approvedUnpinned, variables: { '1': 'a', '2': 'b', '3': 'c' } }),
          )
          .expect(201)
      ).body;
      const request = as(e)[method](path.replace(':id', draft.id));
      const res = await (typeof body === 'string'
        ? body
          ? request.set('Content-Type', 'text/plain').send(body)
          : request
        : request.send(body));
      expect(res.body.error?.code).toBe(code);
      expect(listed(method, route)).toContain(`\`${code}\``);
    },
  );
});

describe('a journey step whose template has no sender', () => {
  it('is refused like an unapproved one (409 AMBIGUOUS_INTEGRATION naming the step), not failed at every send', async () => {
    const e = await emulator({ now: frozen });
    const steps = [
      { template_id: SEED_IDS.templates.approved, delay_seconds: 0 },
      // Approved but not pinned, and the seed has two active numbers.
      { template_id: SEED_IDS.templates.approvedUnpinned, delay_seconds: 60 },
    ];
    const res = await as(e)
      .post('/v1/journeys')
      .send({ name: 'Unpinned', trigger_name: 'unpinned', steps })
      .expect(409);
    expect(res.body.error).toMatchObject({ code: 'AMBIGUOUS_INTEGRATION', details: [{ path: 'steps.1.template_id' }] });
    const journey = (
      await as(e)
        .post('/v1/journeys')
        .send({ name: 'Pinned', trigger_name: 'pinned', steps: steps.slice(0, 1) })
        .expect(201)
    ).body;
    await as(e).put(`/v1/journeys/${journey.id}/steps`).send({ steps }).expect(409);
  });
});

describe('POST /v1/trigger/validate', () => {
  it('runs the quota check a trigger runs: a used-up monthly quota makes it invalid, naming the quota', async () => {
    const e = await emulator({ now: frozen, plan: 'dev_hobby' });
    await activeJourney(e, 'full');
    await enrollMany(e, 'full', PLAN_QUOTAS.dev_hobby.enrollments_per_month!);
    const payload = { trigger_name: 'full', phone: '+14155557001', metadata: { '1': 'A-1', '2': 'today' } };
    const refused = await as(e).post('/v1/trigger').send(payload).expect(422);
    const dry = (await as(e).post('/v1/trigger/validate').send(payload).expect(200)).body;
    expect(dry.valid).toBe(false);
    expect(dry.issues).toEqual([expect.objectContaining({ message: expect.stringContaining('quota') })]);
    expect(refused.body.error.code).toBe('INVALID_STATE');
  });
});

describe('replacing the steps of a running journey with fewer', () => {
  it('skips the pending step the new map no longer has, and explains it, rather than leave it held', async () => {
    const e = await emulator({ now: frozen });
    const step = { template_id: SEED_IDS.templates.approved, delay_seconds: 600 };
    const journey = await activeJourney(e, 'shrinks', [step, step, step]);
    const metadata = { '1': 'A-1', '2': 'today' };
    await as(e).post('/v1/trigger').send({ trigger_name: 'shrinks', phone: '+14155557001', metadata }).expect(201);
    e.clock.advance(1201); // steps 1 and 2 go out; step 3 is pending
    await as(e)
      .put(`/v1/journeys/${journey.id}/steps`)
      .send({ steps: [step] })
      .expect(200);
    e.clock.advance(601);
    const [enrollment] = (await as(e).get('/v1/trigger/history').expect(200)).body.data;
    expect(enrollment).toMatchObject({ status: 'completed', next_step_at: null });
    const last = (
      await as(e)
        .get(`/v1/trigger/status/${enrollment.action_ids.at(-1)}`)
        .expect(200)
    ).body;
    expect(last).toMatchObject({ status: 'skipped', error_code: null, fault: null });
    expect(last.what_happened).toContain('steps were replaced');
  });
});

describe('a business event that several journeys answer, with room in the monthly quota for fewer', () => {
  it('is refused whole (422 INVALID_STATE naming the quota): no journey enrolls the phone and nothing is sent', async () => {
    const e = await emulator({ now: frozen, plan: 'dev_hobby' });
    // Due at once, so an enrollment that started would have sent its first step already.
    const steps = [{ template_id: SEED_IDS.templates.approved, delay_seconds: 0 }];
    for (const name of ['paid.first', 'paid.second']) {
      const journey = (
        await as(e)
          .post('/v1/journeys')
          .send({ name, trigger_name: name, steps, events: ['order.paid'] })
          .expect(201)
      ).body;
      await as(e).post(`/v1/journeys/${journey.id}/status`).send({ status: 'active' }).expect(200);
    }
    await enrollMany(e, 'paid.first', PLAN_QUOTAS.dev_hobby.enrollments_per_month! - 1);
    const phone = '+14155557123';
    const res = await as(e)
      .post('/v1/events')
      .send({ event: 'order.paid', phone, metadata: { '1': 'A-1', '2': 'today' } })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'INVALID_STATE', message: expect.stringContaining('this needs 2') });
    const history = (
      await as(e)
        .get(`/v1/trigger/history?phone=${encodeURIComponent(phone)}`)
        .expect(200)
    ).body;
    expect(history.data).toEqual([]);
    const messages = (await as(e).get('/v1/messages?limit=100').expect(200)).body.data as { content: string }[];
    expect(messages.filter((m) => m.content.includes('A-1'))).toEqual([]);
  });
});

describe('a scheduled campaign that could not be sent when it falls due', () => {
  // An unpinned template, no integration_id, and the seed's two active numbers: POST …/send answers 409.
  const unresolvable = () =>
    campaign({ template_id: SEED_IDS.templates.approvedUnpinned, variables: { '1': 'Monday' } });

  it('is refused when scheduled, at creation or by PATCH, with the 409 AMBIGUOUS_INTEGRATION its send gets', async () => {
    const e = await emulator({ now: frozen });
    const scheduled_at = new Date(e.clock.now() + HOUR_MS).toISOString();
    const created = await as(e)
      .post('/v1/campaigns')
      .send({ ...unresolvable(), scheduled_at })
      .expect(409);
    expect(created.body.error.code).toBe('AMBIGUOUS_INTEGRATION');
    const draft = (await as(e).post('/v1/campaigns').send(unresolvable()).expect(201)).body;
    const patched = await as(e).patch(`/v1/campaigns/${draft.id}`).send({ scheduled_at }).expect(409);
    expect(patched.body.error.code).toBe('AMBIGUOUS_INTEGRATION');
    const named = await as(e)
      .patch(`/v1/campaigns/${draft.id}`)
      .send({ scheduled_at, integration_id: SEED_IDS.phoneSupport })
      .expect(200);
    expect(named.body.status).toBe('scheduled');
  });

  it('is canceled when due with the refusal its send would get as cancel_reason, and sends nothing', async () => {
    const e = await emulator({ now: frozen });
    const created = await as(e)
      .post('/v1/campaigns')
      .send(campaign({ scheduled_at: new Date(e.clock.now() + 60_000).toISOString() }))
      .expect(201);
    // The provider pauses the template before the schedule falls due.
    await as(e)
      .post(`/_emulator/templates/${SEED_IDS.templates.approved}/review`)
      .send({ status: 'paused' })
      .expect(200);
    e.clock.advance(61);
    const done = await vi.waitFor(
      async () => {
        const read = (await as(e).get(`/v1/campaigns/${created.body.id}`).expect(200)).body;
        expect(read.status).not.toBe('scheduled');
        return read;
      },
      { timeout: 15_000, interval: 10 },
    );
    expect(done).toMatchObject({ status: 'canceled', sent_at: null, stats: { recipients: 0, sent: 0, failed: 0 } });
    expect(done.cancel_reason).toMatch(/^TEMPLATE_NOT_APPROVED: .*paused/);
  });
});

describe('POST /v1/trigger/validate, a dry run', () => {
  it('answers an unknown trigger and an inactive journey as issues (200), and its document lists neither 404 nor 422', async () => {
    const e = await emulator({ now: frozen });
    const created = await as(e)
      .post('/v1/journeys')
      .send({
        name: 'Draft',
        trigger_name: 'draft',
        steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: 0 }],
      })
      .expect(201);
    for (const trigger_name of ['nobody', 'draft']) {
      const dry = (await as(e).post('/v1/trigger/validate').send({ trigger_name, phone: '+14155557001' }).expect(200))
        .body;
      expect(dry).toMatchObject({ valid: false, journey_id: trigger_name === 'draft' ? created.body.id : null });
    }
    const doc = openapi();
    const description = String(
      (doc.paths[openapiPath('/v1/trigger/validate')]?.post as { description: string }).description,
    );
    expect(description).not.toContain('`NOT_FOUND`');
    expect(description).not.toContain('`INVALID_STATE`');
  });
});

describe("the provider's rejection of a template without a reason", () => {
  it('announces the reason the template then reads back, not null beside it', async () => {
    const e = await emulator({ now: frozen });
    const hook = await subscribe(e);
    const reviewed = await as(e)
      .post(`/_emulator/templates/${SEED_IDS.templates.pending}/review`)
      .send({ status: 'rejected' })
      .expect(200);
    expect(reviewed.body.rejection_reason).toEqual(expect.any(String));
    expect(await hook.named('template.status_update')).toEqual([
      expect.objectContaining({ status: 'rejected', reason: reviewed.body.rejection_reason }),
    ]);
  });
});
