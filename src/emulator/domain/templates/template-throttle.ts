import type { EmulatorContext } from '../../route-handler.js';
import { Collection } from '../../state/collection.js';
import { stores } from '../../state/stores.js';
import { THROTTLED_ERROR } from '../shared/provider-outcome.js';

/** Throttled (131049) sends of one template within AUTO_PAUSE_WINDOW_MS that pause it (spec, Limits). */
export const AUTO_PAUSE_THROTTLED_SENDS = 5;
export const AUTO_PAUSE_WINDOW_MS = 60 * 60 * 1000;

/** The emulator-clock times of a template's recent throttled sends. */
interface ThrottleLog {
  id: string;
  at: number[];
}

export const TEMPLATE_THROTTLES_KIND = 'template_throttles';

/**
 * Counts one throttled send of a template; the AUTO_PAUSE_THROTTLED_SENDS-th within the window pauses
 * it and announces template.status_update. Runs inside the send's transaction; returns whether it paused.
 */
export function recordThrottledSend(ctx: EmulatorContext, templateId: string): boolean {
  const log = new Collection<ThrottleLog>(ctx.db, TEMPLATE_THROTTLES_KIND);
  const now = ctx.clock.now();
  const recent = [...(log.get(templateId)?.at ?? []), now].filter((t) => t > now - AUTO_PAUSE_WINDOW_MS);
  log.put({ id: templateId, at: recent });
  const { templates } = stores(ctx.db);
  const template = templates.get(templateId);
  if (!template || template.status !== 'approved' || recent.length < AUTO_PAUSE_THROTTLED_SENDS) return false;
  const paused = templates.put({ ...template, status: 'paused', updated_at: new Date(now).toISOString() });
  log.delete(templateId);
  ctx.events.emit('template.status_update', {
    template_id: paused.id,
    template_name: paused.name,
    status: paused.status,
    category: paused.category,
    quality: paused.quality,
    reason: `Paused automatically: ${AUTO_PAUSE_THROTTLED_SENDS} sends throttled by the provider (error ${THROTTLED_ERROR.code}) within 60 minutes`,
  });
  return true;
}
