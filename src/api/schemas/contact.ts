import { z } from 'zod';
import { Channel, PhoneNumber, text, Timestamp } from './common.js';
import { PageQuery } from './page.js';

export const Identity = z.object({ channel: Channel, handle: z.string(), integration_id: z.string() });

export const Contact = z.looseObject({
  id: z.string(),
  name: z.string().nullable(),
  email: z.email().nullable(),
  phone: PhoneNumber.nullable(),
  lead_stage: z.string(),
  score: z.number().int().min(0).max(100),
  owner: z.string().nullable(),
  identities: z.array(Identity),
  opted_out: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Contact = z.output<typeof Contact>;

/** Filters of GET /v1/contacts. */
export const ContactListQuery = PageQuery.extend({ lead_stage: text(64).optional(), owner: text(100).optional() });

export const ContactUpdate = z.strictObject({
  name: text(200).nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  lead_stage: text(64).optional(),
});
