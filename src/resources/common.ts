import { z } from 'zod';

/** The three channel kinds, also the platform names in `brain_config` (docs/resources.md). */
export const Channel = z.enum(['phone', 'photo_social', 'social_page']);
export type Channel = z.output<typeof Channel>;

/** ISO-8601 UTC timestamps as the service writes them. */
export const Timestamp = z.iso.datetime({ offset: true });

/** International phone format with a leading plus (E.164). */
export const PhoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'expected international format with a leading plus, e.g. +14155550123');

/** An HTTPS URL, as the spec requires for media, CTA, custom reply and webhook URLs. */
export const HttpsUrl = z.url({ protocol: /^https$/, error: 'expected an https:// URL' });
