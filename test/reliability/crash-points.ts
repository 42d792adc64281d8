/**
 * Where fixtures/effects-child.ts can die: between its steps (`start`, `after-reply`, `after-crm`,
 * `after-second`), inside the CRM step once its row is written (`in-crm`: PostgreSQL only, where
 * ctx.transaction rolls that row back; with SQLite a step is at least once and would write it again), and
 * right after the service accepted a send but before its step was journaled (`reply-accepted`,
 * `second-accepted`).
 */
export const CRASH_POINTS = [
  'start',
  'reply-accepted',
  'after-reply',
  'in-crm',
  'after-crm',
  'second-accepted',
  'after-second',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];
