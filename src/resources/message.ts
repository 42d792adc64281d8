import { z } from 'zod';
import { Channel, HttpsUrl, Timestamp } from './common.js';

export const MediaType = z.enum(['image', 'document', 'audio', 'video']);

export const Media = z.object({
  type: MediaType,
  url: HttpsUrl,
  caption: z.string().max(1024).optional(),
  filename: z.string().max(255).optional(),
});
export type Media = z.output<typeof Media>;

export const CtaUrl = z.object({
  url: HttpsUrl,
  display_text: z.string().min(1).max(20),
});
export type CtaUrl = z.output<typeof CtaUrl>;

export const Buttons = z.array(z.string().min(1).max(20)).min(1).max(10);

/** The message input object of both send routes. */
export const MessageInput = z.object({
  content: z.string().min(1).max(4096),
  integration_id: z.string().min(1).optional(),
  media: Media.optional(),
  buttons: Buttons.optional(),
  cta_url: CtaUrl.optional(),
});
export type MessageInput = z.output<typeof MessageInput>;

export const MessageDeliveryStatus = z.enum(['queued', 'sent', 'delivered', 'read', 'failed']);
export const MessageSource = z.enum(['ai', 'dashboard', 'api', 'automation', 'journey']);
export const MessageDirection = z.enum(['sent', 'received']);

export const Message = z.looseObject({
  id: z.string(),
  conversation_id: z.string(),
  integration_id: z.string(),
  channel: Channel,
  direction: MessageDirection,
  content: z.string(),
  media: Media.nullable(),
  buttons: z.array(z.string()).nullable(),
  cta_url: CtaUrl.nullable(),
  delivery_status: MessageDeliveryStatus,
  source: MessageSource.nullable(),
  error: z.object({ code: z.string(), reason: z.string() }).nullable(),
  created_at: Timestamp,
});
export type Message = z.output<typeof Message>;
