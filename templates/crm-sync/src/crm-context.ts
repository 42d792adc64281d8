import { type createClient } from 'convo-kit/client';
import { type EventContext } from 'convo-kit/receiver';
import { type CrmDatabase } from './crm-database.js';
import { type WindowClosedTemplate } from './window-closed-template.js';

export type KitClient = ReturnType<typeof createClient>;

/** What every CRM operation needs: its own tables and a client for the service. */
export interface CrmContext {
  db: CrmDatabase;
  client: KitClient;
  /** The approved template a reply falls back to once the 24-hour window has closed (none: the reply fails). */
  windowClosedTemplate?: WindowClosedTemplate;
  /** Sent once to each customer who opens a conversation (CRM_AUTO_REPLY); none by default. */
  autoReply?: string;
}

/**
 * What a handler brings from its delivery: the event-bound client (each call a journaled step, so a retry or
 * a restart after a crash gets the first run's answers instead of calling again, and a send carries an
 * Idempotency-Key of the event), `step` for the CRM's own writes, and the delivery id for the timeline.
 * README of convo-kit, "Effects, exactly once".
 */
export type SyncEffects = Pick<EventContext, 'client' | 'step' | 'deliveryId'>;
