import type { Message } from '../../resources/index.js';
import type { EmulatorContext } from '../route-handler.js';
import { Collection } from '../state/collection.js';
import { stores } from '../state/stores.js';
import { THROTTLED_ERROR } from './provider-outcome.js';

/** Emulator time from the provider's acceptance (201, `queued`) to `sent`, and from `sent` to the final status. */
export const SENT_AFTER_MS = 50;
export const FINAL_AFTER_MS = 250;
/** At most this many steps per catch-up, so one read never does unbounded work. */
const CATCH_UP_BATCH = 500;

/** A message still on its way: its next step is due at `due_at` (emulator ms). */
interface InFlight {
  id: string;
  due_at: number;
  outcome: 'delivered' | 'throttled';
}

function inFlight(ctx: EmulatorContext) {
  return new Collection<InFlight>(ctx.db, 'delivery_progress');
}

/** Moves one message one step (queued -> sent -> delivered | failed) and announces it. */
function step(ctx: EmulatorContext, entry: InFlight): void {
  const { messages } = stores(ctx.db);
  const message = messages.get(entry.id);
  if (!message || (message.delivery_status !== 'queued' && message.delivery_status !== 'sent')) {
    inFlight(ctx).delete(entry.id);
    return;
  }
  if (message.delivery_status === 'queued') {
    const sent = messages.put({ ...message, delivery_status: 'sent' });
    // Timed from the step's due time, so one clock jump completes the whole progress.
    inFlight(ctx).put({ ...entry, due_at: entry.due_at + FINAL_AFTER_MS });
    ctx.events.emit('message.sent', { ...sent, source: sent.source ?? 'api' });
    schedule(ctx, entry.id, FINAL_AFTER_MS);
    return;
  }
  inFlight(ctx).delete(entry.id);
  if (entry.outcome === 'delivered') {
    messages.put({ ...message, delivery_status: 'delivered' });
    return;
  }
  const failed: Message = messages.put({
    ...message,
    delivery_status: 'failed',
    error: { code: THROTTLED_ERROR.code, reason: THROTTLED_ERROR.reason },
  });
  ctx.events.emit('message.delivery_failed', {
    // Template sends keep their template's name on the message (send-template.ts).
    template_name: typeof failed.template_name === 'string' ? failed.template_name : null,
    error_code: THROTTLED_ERROR.code,
    error_reason: THROTTLED_ERROR.reason,
    throttled: true,
    message_id: failed.id,
    conversation_id: failed.conversation_id,
    integration_id: failed.integration_id,
  });
}

function schedule(ctx: EmulatorContext, id: string, delayMs: number): void {
  // Off the request: the caller already has its 201. A closed or reset emulator just drops the step.
  setTimeout(() => {
    try {
      if (!ctx.db.open) return;
      const entry = inFlight(ctx).get(id);
      if (entry) ctx.db.transaction(() => step(ctx, entry))();
    } catch (error) {
      // A closed emulator has nothing left to advance; anything else is a bug worth a loud warning, not a crash.
      if (ctx.db.open)
        process.emitWarning(`convo-kit emulator: delivery progress of message ${id} failed: ${String(error)}`);
    }
  }, delayMs).unref();
}

/** Tracks a message the provider accepted; it advances on a short timer, or at the next read after the clock moved. */
export function trackDelivery(ctx: EmulatorContext, messageId: string, outcome: InFlight['outcome']): void {
  inFlight(ctx).insert({ id: messageId, due_at: ctx.clock.now() + SENT_AFTER_MS, outcome });
  schedule(ctx, messageId, SENT_AFTER_MS);
}

/** Applies every step already due by the emulator clock (after `/_emulator/clock` or a restart). */
export function catchUpDeliveries(ctx: EmulatorContext): void {
  const queue = inFlight(ctx);
  let budget = CATCH_UP_BATCH;
  for (;;) {
    const due = queue.all().filter((entry) => entry.due_at <= ctx.clock.now());
    if (due.length === 0 || budget <= 0) return;
    for (const entry of due.slice(0, budget)) ctx.db.transaction(() => step(ctx, entry))();
    budget -= due.length;
  }
}
