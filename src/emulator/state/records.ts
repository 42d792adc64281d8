import { z } from 'zod';
import {
  Automation,
  AutomationRun,
  Campaign,
  Comment,
  CommentSettings,
  ChannelGroup,
  ConnectedAccount,
  Enrollment,
  Journey,
  ProviderName,
  Template,
} from '../../resources/index.js';
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

/** A journey as stored: exactly the API's shape. */
export const JourneyRecord = Journey;
export type JourneyRecord = z.output<typeof JourneyRecord>;

/**
 * When a journey was last activated (`id` = the journey's id). A step that fell due before then was held
 * by a pause, so it goes out as if due at this instant (docs/outbound.md); kept beside the journey, not in
 * it, so the API's journey shape stays the contract's.
 */
export const JourneyRelease = z.object({ id: z.string(), released_at: Timestamp });
export type JourneyRelease = z.output<typeof JourneyRelease>;

/** An enrollment as stored: exactly the API's shape. */
export const EnrollmentRecord = Enrollment;
export type EnrollmentRecord = z.output<typeof EnrollmentRecord>;

/** One step of one enrollment (an "automation action"): what GET /v1/trigger/status/:id explains. */
export const JourneyAction = z.object({
  id: z.string(),
  enrollment_id: z.string(),
  journey_id: z.string(),
  position: z.number().int().min(0),
  template_id: z.string(),
  /** `scheduled` until its time; then `sent` (see the message for later progress), `failed` or `skipped`. */
  status: z.enum(['scheduled', 'sent', 'failed', 'skipped']),
  due_at: z.string(),
  message_id: z.string().nullable(),
  /** Provider or platform code of a failure or skip (ERROR_EXPLANATIONS), else null. */
  error_code: z.string().nullable(),
  updated_at: z.string(),
});
export type JourneyAction = z.output<typeof JourneyAction>;

/** A campaign as stored: exactly the API's shape (its recipients and progress are kept beside it). */
export const CampaignRecord = Campaign;
export type CampaignRecord = z.output<typeof CampaignRecord>;

/** A tracked comment as stored: exactly the API's shape, its replies inside it (bounded, docs/ai-and-knowledge.md). */
export const CommentRecord = Comment;
export type CommentRecord = z.output<typeof CommentRecord>;

/** The workspace's one comment-settings document (`id` = {@link COMMENT_SETTINGS_ID}). */
export const CommentSettingsRecord = CommentSettings.extend({ id: z.string() });
export type CommentSettingsRecord = z.output<typeof CommentSettingsRecord>;
export const COMMENT_SETTINGS_ID = 'settings';

/** An automation as stored: exactly the API's shape. */
export const AutomationRecord = Automation;
export type AutomationRecord = z.output<typeof AutomationRecord>;

/** One run of an automation, as the trigger answered it. */
export const AutomationRunRecord = AutomationRun;
export type AutomationRunRecord = z.output<typeof AutomationRunRecord>;
