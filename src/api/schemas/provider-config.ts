import { z } from 'zod';
import { Id, text, Timestamp, visibleText, withoutCredentials } from './common.js';
import { LoopbackTolerantWebhookUrl, WebhookUrl } from './webhook-endpoint.js';

/** The `:provider` path values (docs/resources.md). */
export const ProviderName = z.enum(['voice', 'custom_reply']);
export type ProviderName = z.output<typeof ProviderName>;

const unit = z.number().min(0).max(1);

/** Voice-synthesis `config` (spec: enums, 0-1 ranges, speed 0.7-1.2, unsigned 32-bit seed, at most 3 locators). */
export const VoiceConfig = z.strictObject({
  voice_id: text(100),
  model_id: text(100).optional(),
  output_format: z.enum(['mp3_44100_128', 'mp3_22050_32']).optional(),
  language_code: z.string().min(2).max(35).optional(),
  apply_text_normalization: z.enum(['auto', 'on', 'off']).optional(),
  apply_language_text_normalization: z.boolean().optional(),
  seed: z.number().int().min(0).max(4_294_967_295).optional(),
  pronunciation_dictionary_locators: z
    .array(z.strictObject({ pronunciation_dictionary_id: text(100), version_id: text(100) }))
    .max(3)
    .optional(),
  voice_settings: z
    .strictObject({
      stability: unit.optional(),
      similarity_boost: unit.optional(),
      style: unit.optional(),
      use_speaker_boost: z.boolean().optional(),
      speed: z.number().min(0.7).max(1.2).optional(),
    })
    .optional(),
});
export type VoiceConfig = z.output<typeof VoiceConfig>;

function customReplyConfig(url: z.ZodType<string>) {
  return z.strictObject({
    url: withoutCredentials(url, '`secret` signs the calls'),
    /** @default 5000 */
    timeout_ms: z.number().int().min(1_000).max(10_000).optional(),
    send_knowledge_context: z.boolean().optional(),
    send_conversation_history: z.boolean().optional(),
    send_verified_tool_context: z.boolean().optional(),
  });
}

/**
 * Custom reply endpoint `config` (spec: https URL, timeout_ms 1,000-10,000). The URL is held to the same
 * rule as a webhook URL, public https, so the client refuses a private host before the service does.
 */
export const CustomReplyConfig = customReplyConfig(WebhookUrl);
export type CustomReplyConfig = z.output<typeof CustomReplyConfig>;

/** The emulator's relaxation, as for webhooks: the reply endpoint may also be `http://` on a loopback host. */
export const LoopbackTolerantCustomReplyConfig = customReplyConfig(LoopbackTolerantWebhookUrl);

/** The `config` schema of each provider: a server checks the body's `config` against the one its path names. */
export const PROVIDER_CONFIGS = { voice: VoiceConfig, custom_reply: CustomReplyConfig } as const;
/** {@link PROVIDER_CONFIGS} as the emulator checks them (loopback reply endpoints allowed). */
export const LOOPBACK_TOLERANT_PROVIDER_CONFIGS = {
  voice: VoiceConfig,
  custom_reply: LoopbackTolerantCustomReplyConfig,
} as const;

function providerPut<C extends z.ZodType>(config: C) {
  return z.strictObject({
    enabled: z.boolean(),
    config,
    /** Omitted: the stored secret is kept. Blanks alone are no secret. */
    secret: visibleText(500).optional(),
  });
}

/** PUT …/providers/:provider. `secret` is write-only (the third-party key, or the signing secret). */
export const ProviderPut = providerPut(z.union([VoiceConfig, CustomReplyConfig]));
/** PUT …/providers/voice: the body with a voice-synthesis `config`. */
export const VoiceProviderPut = providerPut(VoiceConfig);
/** PUT …/providers/custom_reply: the body with a custom reply endpoint `config`. */
export const CustomReplyProviderPut = providerPut(CustomReplyConfig);
/** The body each `:provider` path value takes: the OpenAPI document gives each provider a path of its own. */
export const PROVIDER_PUTS = { voice: VoiceProviderPut, custom_reply: CustomReplyProviderPut } as const;

/**
 * The same body as a server first reads it: `config` is then checked against the table of the provider
 * the path names, so that a refusal names the field (`config.voice_settings.speed`), not the union.
 */
export const ProviderPutByPath = providerPut(z.record(z.string(), z.unknown()));

/** A provider as read back: the secret masked as `"****"` + its last 4 characters. */
export const ProviderConfig = z.looseObject({
  provider: ProviderName,
  enabled: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  secret: z
    .string()
    .regex(/^\*{4}.{0,4}$/)
    .meta({ examples: ['****c0de'] })
    .nullable(),
  has_secret: z.boolean(),
  updated_at: Timestamp,
});
export type ProviderConfig = z.output<typeof ProviderConfig>;

export const GroupProviderParams = z.object({ group_id: Id, provider: ProviderName });
export const ChannelProviderParams = z.object({ integration_id: Id, provider: ProviderName });

/** Secrets shorter than this read back as `"****"` alone: showing their last 4 characters would show most of them. */
export const MASK_MIN_SECRET_CHARS = 12;

/** Masks a stored secret for reading back: `"****"` + its last 4 characters (docs/ai-and-knowledge.md). */
export function maskSecret(secret: string): string {
  return secret.length >= MASK_MIN_SECRET_CHARS ? `****${secret.slice(-4)}` : '****';
}
