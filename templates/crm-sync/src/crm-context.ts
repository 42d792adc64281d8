import { type createClient } from 'convo-kit/client';
import { type CrmDatabase } from './crm-database.js';
import { type WindowClosedTemplate } from './window-closed-template.js';

export type KitClient = ReturnType<typeof createClient>;

/** What every CRM operation needs: its own tables and a client for the service. */
export interface CrmContext {
  db: CrmDatabase;
  client: KitClient;
  /** The approved template a reply falls back to once the 24-hour window has closed (none: the reply fails). */
  windowClosedTemplate?: WindowClosedTemplate;
}

/** Where a change came from, kept on timeline entries for tracing. */
export interface DeliveryMeta {
  deliveryId?: string;
}
