import { z } from 'zod';

/** Every scope a key can hold (docs/keys-and-limits.md). The spec's own route assignments win over the pattern. */
export const SCOPES = [
  'conversations:read',
  'conversations:write',
  'messages:read',
  'messages:send',
  'contacts:read',
  'contacts:write',
  'tickets:read',
  'tickets:write',
  'pipeline:read',
  'pipeline:write',
  'channels:read',
  'channels:write',
  'automations:read',
  'automations:write',
  'templates:read',
  'templates:write',
  'templates:send',
  'journeys:read',
  'journeys:write',
  'campaigns:read',
  'campaigns:write',
  'comments:read',
  'comments:write',
  'analytics:read',
  'keys:read',
  'keys:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export const Scope = z.enum(SCOPES);
export type Scope = z.output<typeof Scope>;
