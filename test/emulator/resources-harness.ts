import { TRIGGER_BATCH_MAX, TriggerBatchResult } from '../../src/resources/index.js';
import type { EventName } from '../../src/events/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { stores } from '../../src/emulator/state/stores.js';
import type { Message } from '../../src/resources/index.js';
import { as, receiver } from './platform-harness.js';

export { SEED_IDS } from '../../src/emulator/seed.js';

export interface SeenEvent {
  event: EventName;
  data: Record<string, unknown>;
}

/**
 * Subscribes a real local receiver to every event; `events()` waits for the dispatcher to go idle
 * and returns what arrived so far, in order.
 */
export async function subscribe(e: Emulator) {
  const hook = await receiver();
  const res = await as(e)
    .post('/v1/webhooks')
    .send({ url: hook.url, events: ['*'], description: 'resources test' });
  if (res.status !== 201) throw new Error(`webhook registration answered ${res.status}: ${JSON.stringify(res.body)}`);
  return {
    async events(): Promise<SeenEvent[]> {
      await e.dispatcher.idle();
      return hook.received.map((r) => JSON.parse(r.body) as SeenEvent);
    },
    async named(name: EventName): Promise<Record<string, unknown>[]> {
      return (await this.events()).filter((x) => x.event === name).map((x) => x.data);
    },
  };
}

let keyCounter = 0;

/** POST with a fresh Idempotency-Key (the send routes require one). */
export function send(e: Emulator, path: string, body: object) {
  return as(e).post(path).set('Idempotency-Key', `resources-test-${++keyCounter}`).send(body);
}

/** A customer message through the emulator's control. */
export function inbound(e: Emulator, body: object) {
  return as(e).post('/_emulator/inbound').send(body);
}

/**
 * Enrolls `count` phones (+120655NNNN7: the provider accepts and delivers) through the trigger `triggerName`,
 * TRIGGER_BATCH_MAX per call, with the variables the seed's approved template needs; throws on any refused row.
 */
export async function enrollMany(e: Emulator, triggerName: string, count: number): Promise<void> {
  for (let first = 0; first < count; first += TRIGGER_BATCH_MAX) {
    const recipients = Array.from({ length: Math.min(TRIGGER_BATCH_MAX, count - first) }, (_, i) => ({
      phone: `+120655${String(first + i).padStart(4, '0')}7`,
      metadata: { '1': 'A-9', '2': 'soon' },
    }));
    const res = await as(e).post('/v1/trigger/batch').send({ trigger_name: triggerName, recipients });
    if (res.status !== 200) throw new Error(`trigger batch answered ${res.status}: ${JSON.stringify(res.body)}`);
    const refused = TriggerBatchResult.parse(res.body).results.filter((row) => !row.ok);
    if (refused.length > 0)
      throw new Error(`trigger batch refused ${refused.length} rows: ${JSON.stringify(refused[0])}`);
  }
}

/** `count` messages sent earlier this month on the seeded delivered chat (`source` ai makes them AI replies). */
export function sentEarlier(e: Emulator, count: number, source: Message['source'] = 'api'): void {
  const at = e.clock.iso();
  stores(e.db).messages.insertMany(
    Array.from({ length: count }, (_, i) => ({
      id: `msg_earlier_${source}_${i}`,
      conversation_id: SEED_IDS.delivered.conversation,
      integration_id: SEED_IDS.phoneMain,
      channel: 'phone' as const,
      direction: 'sent' as const,
      content: 'an earlier send',
      media: null,
      buttons: null,
      cta_url: null,
      delivery_status: 'delivered' as const,
      source,
      error: null,
      created_at: at,
    })),
  );
}
