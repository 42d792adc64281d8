import { z } from 'zod';
import { HttpsUrl, Id, Timestamp, withoutCredentials } from './common.js';
import { isSubscribable, SUBSCRIBABLE } from '../events/subscription.js';
import { checkHost, isLoopbackHost } from '../../internal/address-policy.js';

/**
 * The host and scheme as a URL parser reads them (the scheme lower-cased: `HTTPS://` is https). zod 4 runs
 * refinements even when the URL check already failed, so this must not throw on a non-URL.
 */
function partsOf(url: string): { host: string; https: boolean } {
  if (!URL.canParse(url)) return { host: '', https: false };
  const parsed = new URL(url);
  return { host: parsed.hostname, https: parsed.protocol === 'https:' };
}

/** Its own message: the URL schema's `error` would otherwise name a long URL "not an https:// URL". */
const MAX_URL_ERROR = { error: 'expected a URL of at most 2048 characters' };

/**
 * The host check of both webhook URL schemas, one refinement: a public host (by address range,
 * src/internal/address-policy.ts: every special-purpose range, IPv6 forms of IPv4 addresses, metadata and
 * local names), or with `loopback` also a loopback host written as such, over http:// or https://. What a
 * name resolves to is checked again whenever something connects to it.
 */
function webhookHost(loopback: boolean, expected: string) {
  return (url: string, ctx: z.RefinementCtx) => {
    const { host, https } = partsOf(url);
    // No host: the URL check already says why.
    if (host === '' || (loopback && isLoopbackHost(host))) return;
    const verdict =
      loopback && !https
        ? ({ ok: false, reason: 'http:// is for a loopback host only' } as const)
        : checkHost(host, 'public');
    if (!verdict.ok) ctx.addIssue({ code: 'custom', message: `${expected}: ${verdict.reason}` });
  };
}

/** The service's rule: a public HTTPS URL. */
export const WebhookUrl = HttpsUrl.max(2048, MAX_URL_ERROR).superRefine(
  webhookHost(false, 'expected a public https:// URL'),
);

/**
 * The emulator's relaxation (docs/keys-and-limits.md): also `http://` or `https://` to a loopback host, for
 * local receivers. One refinement rather than a union with WebhookUrl, so a refused URL hears why (the
 * address range), not only that neither branch matched.
 */
export const LoopbackTolerantWebhookUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' })
  .max(2048, MAX_URL_ERROR)
  .superRefine(
    webhookHost(
      true,
      'expected a public https:// URL, or http(s) to localhost or a loopback address such as 127.0.0.1 or [::1]',
    ),
  );

/**
 * A subscription: a known event name, `*`, or a namespace wildcard (`message.*`). An unknown name would
 * never be sent anything, so it is refused with the list of what is known.
 */
export const EventSubscription = z
  .string()
  .max(100)
  .refine(isSubscribable, {
    error: (issue) => `unknown event ${JSON.stringify(issue.input)}; expected one of ${SUBSCRIBABLE.join(', ')}`,
  });

export const WebhookEndpoint = z.looseObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  is_active: z.boolean(),
  description: z.string().nullable(),
  created_at: Timestamp,
});
export type WebhookEndpoint = z.output<typeof WebhookEndpoint>;

/** The registration response: the only time the `whsec_` secret is shown. */
export const WebhookEndpointCreated = WebhookEndpoint.extend({
  secret: z
    .string()
    .startsWith('whsec_')
    .meta({ examples: ['whsec_9Fq2Lx7Wm4Zt1Rk8Vn3Hb6Yc'] }),
});

function webhookCreate<U extends z.ZodType<string, string>>(url: U) {
  return z.strictObject({
    url: withoutCredentials(url, "the endpoint's whsec_ secret signs every delivery"),
    events: z.array(EventSubscription).min(1).max(50),
    description: z.string().max(500).optional(),
  });
}

/** POST /v1/webhooks as the service checks it. */
export const WebhookCreate = webhookCreate(WebhookUrl);
/** The same body as the emulator checks it (loopback receivers allowed). */
export const LoopbackTolerantWebhookCreate = webhookCreate(LoopbackTolerantWebhookUrl);

/** One delivery attempt (the last 50 are kept). `status_code` is null for a network failure or timeout. */
export const WebhookAttempt = z.looseObject({
  id: z.string(),
  delivery_id: z.string(),
  event: z.string(),
  status_code: z.number().int().nullable(),
  attempt: z.number().int().min(1),
  delivered_at: Timestamp.nullable(),
  next_retry_at: Timestamp.nullable(),
  created_at: Timestamp,
});
export type WebhookAttempt = z.output<typeof WebhookAttempt>;

/** POST /v1/webhooks/sign-payload (docs/resources.md): signs with that endpoint's secret, which is never shown. */
export const SignPayloadRequest = z.strictObject({
  webhook_id: Id,
  /** A string is signed as is; any other JSON value is serialized first. */
  payload: z.union([z.string().max(1024 * 1024), z.json()]),
  /** Unix seconds. @default now */
  timestamp: z.number().int().min(0).optional(),
});

/** `sha256=` and the HMAC-SHA256 in 64 lowercase hex digits: the X-Service-Signature of every delivery. */
export const Signature = z
  .string()
  .regex(/^sha256=[0-9a-f]{64}$/, 'expected sha256= and 64 lowercase hex digits')
  .meta({ examples: [`sha256=${'5f'.repeat(32)}`] });

export const SignPayloadResult = z.looseObject({
  timestamp: z.number().int(),
  signature: Signature,
  raw_body: z.string(),
});
