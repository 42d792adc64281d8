import { z } from 'zod';
import { ChannelGroup, ConnectedAccount } from '../../api/index.js';
import { PhoneNumber, Timestamp } from '../../resources/index.js';
import { TemplateCategory, TemplateQuality, TemplateStatus } from '../../resources/template.js';

/** A connected account as stored: the API's shape plus the sending number on the phone channel. */
export const Account = ConnectedAccount.extend({ phone: PhoneNumber.nullable() });
export type Account = z.output<typeof Account>;

/** A group as stored; its `integration_ids` are computed from the accounts on read. */
export const Group = ChannelGroup.omit({ integration_ids: true });
export type Group = z.output<typeof Group>;

/** A message template as the provider review control sees it (the templates routes come in part 2). */
export const TemplateRecord = z.object({
  id: z.string(),
  name: z.string(),
  category: TemplateCategory,
  status: TemplateStatus,
  quality: TemplateQuality,
  pinned_integration_id: z.string().nullable(),
  body: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type TemplateRecord = z.output<typeof TemplateRecord>;
