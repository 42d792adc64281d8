import { redactText } from '../../internal/redact-text.js';
import { type EventHandler } from '../../receiver/index.js';
import { type DeliveryStore } from '../../store/index.js';
import { postSigned, refusalReason } from '../post-signed.js';
import { type LogEntry } from './delivery-log.js';

export interface ForwarderOptions {
  url: string;
  secret: string;
  store: DeliveryStore;
  timeoutMs: number;
  maxAttempts: number;
  log: (entry: LogEntry) => void;
}

/**
 * The `*` handler of `listen --forward-to`: re-signs the stored bytes with the same secret (fresh timestamp,
 * same delivery id, so the app deduplicates) and POSTs them. A non-2xx or network failure throws, so the
 * receiver's worker retries it with backoff: an app that is down loses nothing.
 */
export function forwarder(options: ForwarderOptions): EventHandler {
  return async ({ deliveryId, event, attempt, signal }) => {
    const record = await options.store.get(deliveryId);
    if (!record) throw new Error(`delivery ${deliveryId} vanished from the store`);
    try {
      const result = await postSigned({
        url: options.url,
        body: record.body,
        secret: options.secret,
        deliveryId,
        event: record.event,
        timeoutMs: options.timeoutMs,
      });
      if (!result.ok) throw new Error(refusalReason(options.url, result));
      options.log({ event, deliveryId, outcome: 'forwarded', status: result.status });
    } catch (error) {
      // The app's answer or a network error may quote a credential (the secret, a token in the URL): this
      // line is printed, and the error thrown is the one onError prints and the store keeps.
      const reason = redactText(error instanceof Error ? error.message : String(error), [options.secret]);
      // The last attempt is reported by onError as dead; earlier ones say a retry is coming.
      if (attempt < options.maxAttempts && !signal.aborted) {
        options.log({
          event,
          deliveryId,
          outcome: 'forward_failed',
          detail: `attempt ${attempt}/${options.maxAttempts}: ${reason}; retrying`,
        });
      }
      throw new Error(reason, { cause: error });
    }
  };
}
