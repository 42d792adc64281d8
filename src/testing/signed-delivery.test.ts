import { describe, expect, it } from 'vitest';
import { eventSchemas } from '../events/index.js';
import { verify } from '../signature/index.js';
import { signedDelivery } from './index.js';

const secret = 'whsec_testing_helper';

describe('signedDelivery', () => {
  it('signs a sample of the event that verifies with the same secret', async () => {
    const d = signedDelivery({ secret, event: 'contact.opted_out', deliveryId: 'dlv_fixed' });
    expect(d.headers['x-service-delivery']).toBe('dlv_fixed');
    expect(d.headers['x-service-event']).toBe('contact.opted_out');
    const envelope = JSON.parse(d.body) as { data: unknown };
    expect(eventSchemas['contact.opted_out'].safeParse(envelope.data).success).toBe(true);
    await expect(
      verify({
        body: d.body,
        signature: d.headers['x-service-signature'],
        timestamp: d.headers['x-service-timestamp'],
        secrets: secret,
      }),
    ).resolves.toBeDefined();
  });

  it('signs an envelope or raw string given as is, with the given timestamp', async () => {
    const d = signedDelivery({ secret, envelope: '{"event":"x.y","data":{}}', timestamp: 1763683200 });
    expect(d.body).toBe('{"event":"x.y","data":{}}');
    expect(d.headers['x-service-timestamp']).toBe('1763683200');
    expect(d.envelope).toBeUndefined();
    const wrong = verify({
      body: d.body,
      signature: d.headers['x-service-signature'],
      timestamp: d.headers['x-service-timestamp'],
      secrets: 'whsec_other',
      now: () => 1763683200_000,
    });
    await expect(wrong).rejects.toMatchObject({ code: 'SIGNATURE_MISMATCH' });
  });
});
