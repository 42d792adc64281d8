import { z } from 'zod';
import { ChannelGroup, ConnectedAccount, ProviderName, Template } from '../../api/index.js';
import { PhoneNumber, Timestamp } from '../../resources/index.js';

/** A connected account as stored: the API's shape plus the sending number on the phone channel. */
export const Account = ConnectedAccount.extend({ phone: PhoneNumber.nullable() });
export type Account = z.output<typeof Account>;

/** A group as stored; its `integration_ids` are computed from the accounts on read. */
export const Group = ChannelGroup.omit({ integration_ids: true });
export type Group = z.output<typeof Group>;

/** A message template as stored: exactly the API's shape. */
export const TemplateRecord = Template;
export type TemplateRecord = z.output<typeof TemplateRecord>;

/** Who a provider belongs to: a group, or one connected account (whose provider overrides its group's). */
export const ProviderOwner = z.enum(['group', 'channel']);
export type ProviderOwner = z.output<typeof ProviderOwner>;

/**
 * A provider as stored (`id` = `<owner_id>/<provider>`): the secret sealed with the secret box, and its
 * masked form kept beside it so that reading a provider back never unseals anything.
 */
export const ProviderRecord = z.object({
  id: z.string(),
  owner: ProviderOwner,
  owner_id: z.string(),
  provider: ProviderName,
  enabled: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  sealed_secret: z.string().nullable(),
  masked_secret: z.string().nullable(),
  updated_at: Timestamp,
});
export type ProviderRecord = z.output<typeof ProviderRecord>;
