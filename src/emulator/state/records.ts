import { type z } from 'zod';
import { ChannelGroup, ConnectedAccount, Template } from '../../api/index.js';
import { PhoneNumber } from '../../resources/index.js';

/** A connected account as stored: the API's shape plus the sending number on the phone channel. */
export const Account = ConnectedAccount.extend({ phone: PhoneNumber.nullable() });
export type Account = z.output<typeof Account>;

/** A group as stored; its `integration_ids` are computed from the accounts on read. */
export const Group = ChannelGroup.omit({ integration_ids: true });
export type Group = z.output<typeof Group>;

/** A message template as stored: exactly the API's shape. */
export const TemplateRecord = Template;
export type TemplateRecord = z.output<typeof TemplateRecord>;
