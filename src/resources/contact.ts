import { z } from 'zod';
import { Channel, PhoneNumber, Timestamp } from './common.js';

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
