import { z } from 'zod';
import { Id, platformMap, Timestamp, visibleText } from './common.js';

/** The AI configuration of a group (spec, `brain_config`). Platform maps are keyed by channel kind. */
const brainConfigShape = {
  business_name: z.string().max(200).optional(),
  tone: z.string().max(200).optional(),
  language: z.string().max(35).optional(),
  company_info: z.string().max(20_000).optional(),
  faqs: z.string().max(20_000).optional(),
  platform_prompts: platformMap(z.string().max(4_000)).optional(),
  enabled_platforms: platformMap(z.boolean()).optional(),
  emoji_usage: z.string().max(50).optional(),
};

/** `brain_config` as sent: an unknown key is a mistake. */
export const BrainConfig = z.strictObject(brainConfigShape);
export type BrainConfig = z.output<typeof BrainConfig>;

export const ChannelGroup = z.looseObject({
  group_id: z.string(),
  name: z.string(),
  ai_enabled: z.boolean(),
  brain_config: z.looseObject(brainConfigShape),
  /** The connected accounts assigned to the group. */
  integration_ids: z.array(z.string()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ChannelGroup = z.output<typeof ChannelGroup>;

export const ChannelGroupCreate = z.strictObject({
  name: visibleText(100),
  /** @default false */
  ai_enabled: z.boolean().optional(),
  /** @default {} */
  brain_config: BrainConfig.optional(),
});

/** `brain_config` given on update replaces the stored one as a whole. */
export const ChannelGroupUpdate = z.strictObject({
  name: visibleText(100).optional(),
  ai_enabled: z.boolean().optional(),
  brain_config: BrainConfig.optional(),
});

/** Path params of `/v1/channels/groups/:group_id` routes. */
export const ChannelGroupParams = z.object({ group_id: Id });
