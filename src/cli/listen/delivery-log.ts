import { formatTime } from '../deliveries/format.js';
import { out } from '../output.js';

export type Outcome = 'stored' | 'duplicate' | 'rejected' | 'forwarded' | 'forward_failed' | 'dead';

export interface LogEntry {
  event: string | undefined;
  deliveryId: string | undefined;
  outcome: Outcome;
  /** HTTP status: of our answer (stored, duplicate, rejected) or of the app's (forwarded, forward_failed). */
  status?: number;
  detail?: string;
}

const PAINT: Record<Outcome, (text: string) => string> = {
  stored: out.c.green,
  duplicate: out.c.dim,
  rejected: out.c.red,
  forwarded: out.c.green,
  forward_failed: out.c.yellow,
  dead: out.c.red,
};

/** One line per thing that happened to a delivery: readable text for people, or one JSON object per line (--json). */
export function createDeliveryLog(json: boolean, now: () => number = Date.now): (entry: LogEntry) => void {
  return (entry) => {
    const time = formatTime(now());
    if (json) {
      out.line(
        JSON.stringify({
          time,
          event: entry.event ?? null,
          delivery_id: entry.deliveryId ?? null,
          outcome: entry.outcome,
          status: entry.status ?? null,
          detail: entry.detail ?? null,
        }),
      );
      return;
    }
    const outcome = entry.outcome.replace('_', ' ') + (entry.status === undefined ? '' : ` ${entry.status}`);
    const detail = entry.detail ? out.c.dim(`  ${entry.detail}`) : '';
    out.line(
      `${out.c.dim(time)}  ${entry.event ?? '-'}  ${entry.deliveryId ?? '-'}  ${PAINT[entry.outcome](outcome)}${detail}`,
    );
  };
}
