import { randomBytes } from 'node:crypto';
import { type Receiver, type ReplayOptions } from '../../receiver/index.js';
import { prefixedId } from '../../internal/prefixed-id.js';
import { redactText, shownError } from '../../internal/redact-text.js';
import { newDeliveryId } from '../../signature/index.js';
import { type DeliveryStore, type DeliverySummary } from '../../store/index.js';
import { postSigned, refusalReason } from '../post-signed.js';

export type ReplayOutcome = 'done' | 'dead' | 'busy' | 'missing';

export interface ReplayResult {
  id: string;
  event: string;
  outcome: ReplayOutcome;
  /** --to: the status the URL answered. */
  status?: number;
  /** --to --new-ids: the id it was sent under. */
  sentAs?: string;
  error?: string;
}

/** Runs one stored delivery somewhere and settles its status in the store; never throws for a failed run. */
export type ReplayTarget = (delivery: DeliverySummary) => Promise<ReplayResult>;

/** Into the user's handlers: the receiver's own replay (claimed whatever its status, one attempt). */
export function handlersTarget(receiver: Receiver, options: ReplayOptions = {}): ReplayTarget {
  return async ({ id, event }) => {
    const outcome = await receiver.replay(id, options);
    const result: ReplayResult = { id, event, outcome };
    if (outcome === 'dead') result.error = shownError((await receiver.store.get(id))?.lastError ?? null) ?? 'failed';
    if (outcome === 'busy')
      result.error = 'another worker holds it right now (is a receiver running on this database?)';
    return result;
  };
}

export interface UrlTargetOptions {
  store: DeliveryStore;
  url: string;
  secret: string;
  newIds: boolean;
  timeoutMs: number;
}

/** Lease long enough for one POST and its timeout; past it another worker may take the row. */
const LEASE_MARGIN_MS = 30_000;

/**
 * The body with a fresh event id (`id`), for --new-ids: receivers deduplicate on the signed event id too,
 * so a new delivery id alone would still be a duplicate. A body that is not a JSON object is sent as stored.
 */
function withNewEventId(body: Uint8Array): Uint8Array | string {
  try {
    const envelope: unknown = JSON.parse(new TextDecoder().decode(body));
    if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) return body;
    return JSON.stringify({ ...envelope, id: prefixedId('evt') });
  } catch {
    return body;
  }
}

/**
 * As a fresh signed POST: the stored bytes re-signed with a new timestamp, under the same delivery id (so the
 * receiver deduplicates) unless --new-ids (a new delivery id and a new event id, so it is processed again).
 * The row is leased while the POST runs, then done (2xx) or dead.
 */
export function urlTarget(options: UrlTargetOptions): ReplayTarget {
  const owner = `convo-kit-replay:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = options.timeoutMs + LEASE_MARGIN_MS;
  return async ({ id, event }) => {
    const record = await options.store.claimById(id, { owner, leaseMs, replay: true });
    if (!record)
      return {
        id,
        event,
        outcome: 'busy',
        error: 'another worker holds it right now (is a receiver running on this database?)',
      };
    const sentAs = options.newIds ? newDeliveryId() : id;
    let error: string;
    try {
      const answer = await postSigned({
        url: options.url,
        body: options.newIds ? withNewEventId(record.body) : record.body,
        secret: options.secret,
        deliveryId: sentAs,
        event: record.event,
        timeoutMs: options.timeoutMs,
      });
      if (answer.ok) {
        await options.store.complete(id, owner);
        return { id, event, outcome: 'done', status: answer.status, ...(options.newIds && { sentAs }) };
      }
      error = refusalReason(options.url, answer);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    // The app's answer or a network error may quote a credential; what is kept and printed hides it.
    const shown = redactText(error, [options.secret]);
    await options.store.fail(id, owner, { error: `replay: ${shown}`, dead: true });
    return { id, event, outcome: 'dead', error: shown, ...(options.newIds && { sentAs }) };
  };
}
