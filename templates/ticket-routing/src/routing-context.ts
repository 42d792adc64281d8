import { type createClient } from 'convo-kit/client';
import { type EventContext } from 'convo-kit/receiver';
import { type AssignmentBook } from './assignment-book.js';
import { type RoutingConfig } from './routing-config.js';

export type KitClient = ReturnType<typeof createClient>;

/**
 * What a handler brings to routing from its delivery: the event-bound client (each call a journaled step, so
 * a retry or a restart after a crash gets the answers the first run had instead of calling again) and
 * `step`, which journals a decision the same way (README of convo-kit, "Effects, exactly once").
 */
export type EventEffects = Pick<EventContext, 'client' | 'step'>;

/** What routing needs: the rules, the load book, a client, and a clock (the emulator's, in tests). */
export interface RoutingContext {
  config: RoutingConfig;
  book: AssignmentBook;
  client: KitClient;
  /** @default () => new Date() */
  now?: () => Date;
  /** Told about each routing outcome (the sample integration prints them). */
  onRouted?: (outcome: RouteOutcome) => void;
}

export type RouteOutcome =
  | { ticketId: string; result: 'routed'; assignee: string; priority: string; rule: string; attempts: number }
  | { ticketId: string; result: 'skipped'; reason: string; attempts: number }
  | { ticketId: string; result: 'unassigned'; reason: string; attempts: number };

/** `If-Match` wants the ETag form of a version. */
export const etag = (version: number): string => `"${version}"`;
