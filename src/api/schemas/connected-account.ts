import { z } from 'zod';
import { Channel, HttpsUrl, Id, Platform, Timestamp } from './common.js';
import { PageQuery } from './page.js';

/** A connected phone number, photo-social account or social page (docs/resources.md). */
export const ConnectedAccount = z.looseObject({
  integration_id: z.string(),
  channel: Channel,
  display_name: z.string(),
  group_id: z.string().nullable(),
  /** Direct-message AI replies. */
  ai_enabled: z.boolean(),
  /** Comment AI replies; always false on the phone channel, which has no comments. */
  ai_comment_replies_enabled: z.boolean(),
  status: z.enum(['active', 'disconnected']),
  created_at: Timestamp,
});
export type ConnectedAccount = z.output<typeof ConnectedAccount>;

/** PATCH /v1/channels/:integration_id: this account only. `group_id: null` returns it to the workspace defaults. */
export const ConnectedAccountUpdate = z.strictObject({
  ai_enabled: z.boolean().optional(),
  ai_comment_replies_enabled: z.boolean().optional(),
  group_id: Id.nullable().optional(),
});

export const ConnectSessionCreate = z.strictObject({
  /** The kind of provider account the owner will authorize. */
  channel: Platform,
  /** Where the browser returns after the provider's OAuth. */
  return_url: HttpsUrl.optional(),
});

/** A secure browser handoff: the workspace owner opens `url` and completes the provider's OAuth there. */
export const ConnectSession = z.looseObject({
  id: z.string(),
  channel: Channel,
  url: z.string(),
  return_url: z.string().nullable(),
  expires_at: Timestamp,
  created_at: Timestamp,
});
export type ConnectSession = z.output<typeof ConnectSession>;

/** Filters of GET /v1/channels. */
export const ConnectedAccountListQuery = PageQuery.extend({ channel: Platform.optional(), group_id: Id.optional() });

/** Path params of `/v1/channels/:integration_id` routes. */
export const ConnectedAccountParams = z.object({ integration_id: Id });
