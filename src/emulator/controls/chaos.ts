import { z } from 'zod';
import { Id, Timestamp } from '../../api/schemas/common.js';
import { ChaosRule, ChaosState } from '../chaos/chaos-rule.js';
import { control } from '../platform/controls-router.js';
import { WebhookStore } from '../state/webhook-store.js';

/** A rotation's grace period at most: a day, like an API key's. */
const MAX_GRACE_SECONDS = 24 * 3600;

/** `POST /_emulator/chaos`: sets the hazards of the deliveries that follow, for one endpoint or for all. */
export const chaosControl = control({
  path: '/chaos',
  summary:
    'Set the delivery hazards of one endpoint (or all): duplicates, out-of-order arrival, a delay, forced timeouts, ' +
    'a burst after a hold; a rule with every hazard off removes it. Answers every rule and the figures so far',
  body: ChaosRule,
  response: ChaosState,
  errors: ['NOT_FOUND'],
  run: (ctx, { body }) => {
    if (body.endpoint_id) new WebhookStore(ctx.db).require(body.endpoint_id);
    return ctx.dispatcher.chaos.set(body);
  },
});

/** `POST /_emulator/chaos/clear`: no hazard any more; answers the figures of the run that ends. */
export const chaosClearControl = control({
  path: '/chaos/clear',
  summary: 'Remove every chaos rule; answers the rules and figures of the run that ends, then counts from zero',
  response: ChaosState,
  run: (ctx) => ctx.dispatcher.chaos.clear(),
});

export const RotateSecretBody = z.strictObject({
  endpoint_id: Id,
  /** How long the old secret keeps signing beside the new one. */
  grace_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS),
});

/** `POST /_emulator/chaos/rotate-secret`: a signing-secret rotation in the middle of a stream. */
export const rotateSecretControl = control({
  path: '/chaos/rotate-secret',
  summary:
    "Rotate one endpoint's signing secret: deliveries carry a signature by each secret during the grace period, " +
    'then by the new one alone. Answers the new secret (the only time it is shown)',
  body: RotateSecretBody,
  response: z.object({ endpoint_id: z.string(), secret: z.string(), previous_valid_until: Timestamp }),
  errors: ['NOT_FOUND'],
  run: (ctx, { body }) => {
    const { secret, previousValidUntil } = new WebhookStore(ctx.db).rotateSecret(
      body.endpoint_id,
      body.grace_seconds * 1000,
      ctx.clock.now(),
    );
    return { endpoint_id: body.endpoint_id, secret, previous_valid_until: new Date(previousValidUntil).toISOString() };
  },
});
