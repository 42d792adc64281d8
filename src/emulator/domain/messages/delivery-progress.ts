import type { Message } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { Collection } from '../../state/collection.js';
import { statement } from '../../state/statement.js';
import { stores } from '../../state/stores.js';
import { THROTTLED_ERROR } from '../shared/provider-outcome.js';
import { runBounded, type BoundedWork } from '../shared/run-bounded.js';

/** Emulator time from the provider's acceptance (201, `queued`) to `sent`, and from `sent` to the final status. */
export const SENT_AFTER_MS = 50;
export const FINAL_AFTER_MS = 250;
/**
 * Steps a read applies before answering (a few milliseconds): enough for what a test or a person just
 * sent; a 25,000-send backlog after a clock jump is left to the scheduler's sweep, which a clock move wakes.
 */
const CATCH_UP_STEPS = 100;
/** Due steps read per query, so a sweep never loads the whole backlog at once. */
const PAGE_ROWS = 64;

export const DELIVERY_PROGRESS_KIND = 'delivery_progress';

/** A message still on its way: its next step is due at `due_at` (emulator ms). */
interface InFlight {
  id: string;
  due_at: number;
  outcome: 'delivered' | 'throttled';
}

// Named, with the literal kind its WHERE needs: without statistics the planner picks docs_contact and
// sorts the whole backlog for every page (src/emulator/state/collection.ts declares the index).
const DUE_SQL = `SELECT data FROM docs INDEXED BY docs_delivery_due
  WHERE kind = 'delivery_progress' AND json_extract(data, '$.due_at') <= ? ORDER BY json_extract(data, '$.due_at') LIMIT ?`;
const NEXT_DUE_SQL = `SELECT min(json_extract(data, '$.due_at')) AS at FROM docs INDEXED BY docs_delivery_due
  WHERE kind = 'delivery_progress'`;

function inFlight(ctx: EmulatorContext) {
  return new Collection<InFlight>(ctx.db, DELIVERY_PROGRESS_KIND);
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

/**
 * Tracks a message the provider accepted. Nothing is timed per message: the outbound scheduler sweeps
 * the due steps in bounded pages (deliverySteps), and a read applies what fell due (catchUpDeliveries).
 */
export function trackDelivery(ctx: EmulatorContext, messageId: string, outcome: InFlight['outcome']): void {
  inFlight(ctx).insert({ id: messageId, due_at: ctx.clock.now() + SENT_AFTER_MS, outcome });
  ctx.outbound.wake();
}

/**
 * The delivery steps due by the emulator clock, for runBounded. One page per transaction; a step that
 * throws is rolled back alone, dropped and warned about on the emulator's logger, so a bad message cannot
 * wedge the sweep: it stays at the status it had (`queued` or `sent`), and no later sweep tries it again.
 */
export function deliverySteps(ctx: EmulatorContext): BoundedWork<InFlight> {
  return {
    db: ctx.db,
    dueSql: DUE_SQL,
    dueBy: () => ctx.clock.now(),
    pageRows: PAGE_ROWS,
    pageInTransaction: true,
    step: (entry) => {
      try {
        ctx.db.transaction(() => step(ctx, entry))();
      } catch (error) {
        // Anything but a closed database is a bug worth a loud warning, not a crash or a retry loop.
        if (!ctx.db.open) throw error;
        inFlight(ctx).delete(entry.id);
        ctx.logger.warn(
          { err: error, message_id: entry.id },
          'delivery step failed: the message keeps its status and leaves the sweep',
        );
      }
    },
  };
}

/** When the next step falls due (emulator ms), or null when no message is on its way. */
export function nextDeliveryDueAt(ctx: EmulatorContext): number | null {
  return (statement(ctx.db, NEXT_DUE_SQL).get() as { at: number | null }).at;
}

/**
 * Before a read: applies the steps already due (after `/_emulator/clock` or a restart), up to
 * CATCH_UP_STEPS so that a read never does unbounded work; the scheduler's sweep does the rest.
 */
export function catchUpDeliveries(ctx: EmulatorContext): void {
  runBounded(deliverySteps(ctx), { maxSteps: CATCH_UP_STEPS });
}
