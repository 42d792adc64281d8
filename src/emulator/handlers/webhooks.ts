import { sign } from '../../signature/index.js';
import { DeliveryQueue } from '../dispatch/delivery-queue.js';
import { ApiFailure, notFound } from '../api-failure.js';
import { enroll, journeyForTrigger } from '../domain/trigger/enroll.js';
import { PLAN_QUOTAS } from '../domain/usage/plan-quotas.js';
import { triggerResult } from '../domain/trigger/trigger-result.js';
import type { z } from 'zod';
import type { WebhookSendRequest } from '../../resources/index.js';
import type { EmulatorContext, RouteHandlers } from '../route-handler.js';
import type { endpoints } from '../../api/endpoints/index.js';
import { WebhookStore } from '../state/webhook-store.js';

/** Endpoints per workspace whatever the plan, an unlimited one included. */
export const MAX_WEBHOOK_ENDPOINTS = 100;

/** The plan's webhook quota (docs/keys-and-limits.md), in the words of the other quota refusals. */
function requireWebhookQuota(ctx: EmulatorContext, used: number): void {
  const quota = PLAN_QUOTAS[ctx.plan].webhooks;
  if (quota === null || used < quota) return;
  throw new ApiFailure(
    'INVALID_STATE',
    `The ${ctx.plan} plan allows ${quota} webhook endpoints and all are registered; delete one first (DELETE /v1/webhooks/:id)`,
    { details: [{ quota, used }] },
  );
}

/** POST /v1/webhooks/send and its alias trigger-campaign: a trigger whose first step may skip its delay (`send_now`). */
function sendOrTrigger(ctx: EmulatorContext, body: z.output<typeof WebhookSendRequest>) {
  const journey = journeyForTrigger(ctx, body.trigger_name);
  return triggerResult(
    enroll(ctx, journey, { phone: body.phone, metadata: body.metadata ?? {}, sendNow: body.send_now ?? false }),
  );
}

export const webhooksHandlers = {
  list: ({ query }, ctx) => new WebhookStore(ctx.db).list({ limit: query.limit, cursor: query.cursor }),

  create: ({ body }, ctx) => {
    const store = new WebhookStore(ctx.db);
    const used = store.count();
    requireWebhookQuota(ctx, used);
    // Every event is matched against every endpoint: a bound keeps each emit's work small.
    if (used >= MAX_WEBHOOK_ENDPOINTS) {
      throw new ApiFailure(
        'INVALID_STATE',
        `A workspace has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`,
      );
    }
    const { endpoint, secret } = store.create({
      id: ctx.newId('wh'),
      url: body.url,
      events: [...new Set(body.events)],
      description: body.description ?? null,
      created_at: ctx.clock.iso(),
    });
    // The only time the secret is readable: it is kept sealed and never answered again.
    return { ...endpoint, secret };
  },

  delete: ({ params }, ctx) => {
    new WebhookStore(ctx.db).delete(params.id);
  },

  listDeliveries: ({ params, query }, ctx) => {
    new WebhookStore(ctx.db).require(params.id);
    return new DeliveryQueue(ctx.db).attempts(params.id, { limit: query.limit, cursor: query.cursor });
  },

  /** Decisions §3: a test signature with the endpoint's secret, which itself stays hidden. */
  signPayload: ({ body }, ctx) => {
    const secret = new WebhookStore(ctx.db).secretOf(body.webhook_id);
    if (secret === undefined) throw notFound('webhook endpoint', body.webhook_id);
    const rawBody = typeof body.payload === 'string' ? body.payload : JSON.stringify(body.payload);
    // Real seconds, like deliveries: the receiver under test checks them against its own clock.
    const timestamp = body.timestamp ?? Math.floor(Date.now() / 1000);
    return { timestamp, signature: sign({ secret, timestamp, body: rawBody }), raw_body: rawBody };
  },

  send: ({ body }, ctx) => sendOrTrigger(ctx, body),
  triggerCampaign: ({ body }, ctx) => sendOrTrigger(ctx, body),
} satisfies RouteHandlers<typeof endpoints.webhooks>;
