import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTO_PAUSE_THROTTLED_SENDS } from '../../src/emulator/domain/templates/template-throttle.js';
import { as, cleanup, emulator } from './platform-harness.js';
import { inbound, SEED_IDS } from './resources-harness.js';

afterEach(cleanup);

describe('a campaign whose sends the provider throttles', () => {
  it('refuses the sends after its throttled sends auto-pause the template, even in the same chunk', async () => {
    const e = await emulator();
    // Numbers ending in 0002: the sandbox accepts each send and throttles its delivery (docs/outbound.md).
    const contacts: string[] = [];
    for (let i = 0; i < AUTO_PAUSE_THROTTLED_SENDS + 2; i++) {
      const res = await inbound(e, { channel: 'phone', from: { handle: `+1415${i}5550002` }, content: 'hi' }).expect(
        201,
      );
      contacts.push(res.body.contact.id as string);
    }
    const created = await as(e)
      .post('/v1/campaigns')
      .send({
        name: 'Throttled',
        template_id: SEED_IDS.templates.approved,
        audience: { contact_ids: contacts },
        variables: { '1': 'T-1', '2': 'today' },
      })
      .expect(201);
    await as(e).post(`/v1/campaigns/${created.body.id}/send`).send({}).expect(201);
    const view = await vi.waitFor(
      async () => {
        const read = (await as(e).get(`/v1/campaigns/${created.body.id}`)).body;
        expect(read.status).toBe('sent');
        return read;
      },
      { timeout: 15_000, interval: 10 },
    );
    // The fifth throttled send paused the template: the sends after it are refused, not sent.
    expect(view.stats).toMatchObject({ recipients: contacts.length, sent: AUTO_PAUSE_THROTTLED_SENDS, skipped: 0 });
    expect(view.stats.failed).toBeGreaterThanOrEqual(2);
    expect((await as(e).get(`/v1/templates/${SEED_IDS.templates.approved}`)).body.status).toBe('paused');
  });
});
