import type Database from 'better-sqlite3';
import type { z } from 'zod';
import {
  ConnectSession,
  Contact,
  Conversation,
  KnowledgeEntry,
  Lead,
  Message,
  Stage,
  Ticket,
} from '../../resources/index.js';
import { Collection } from './collection.js';
import {
  Account,
  AutomationRecord,
  AutomationRunRecord,
  CampaignRecord,
  CommentRecord,
  CommentSettingsRecord,
  EnrollmentRecord,
  Group,
  JourneyAction,
  JourneyRecord,
  JourneyRelease,
  ProviderRecord,
  TemplateRecord,
} from './records.js';

/**
 * Every resource collection of the workspace, written once: its kind (the name in the database), the schema
 * its documents follow (a state import checks them with it: saved-state/collection-schemas.ts), and the field
 * that holds its id when that is not `id`.
 */
export const RESOURCE_COLLECTIONS = {
  accounts: { kind: 'accounts', schema: Account, idField: 'integration_id' },
  groups: { kind: 'groups', schema: Group, idField: 'group_id' },
  contacts: { kind: 'contacts', schema: Contact },
  conversations: { kind: 'conversations', schema: Conversation },
  messages: { kind: 'messages', schema: Message },
  tickets: { kind: 'tickets', schema: Ticket },
  leads: { kind: 'leads', schema: Lead },
  stages: { kind: 'stages', schema: Stage },
  templates: { kind: 'templates', schema: TemplateRecord },
  journeys: { kind: 'journeys', schema: JourneyRecord },
  journeyReleases: { kind: 'journey_releases', schema: JourneyRelease },
  enrollments: { kind: 'enrollments', schema: EnrollmentRecord },
  journeyActions: { kind: 'journey_actions', schema: JourneyAction },
  campaigns: { kind: 'campaigns', schema: CampaignRecord },
  connectSessions: { kind: 'connect_sessions', schema: ConnectSession },
  knowledge: { kind: 'knowledge', schema: KnowledgeEntry, idField: 'entry_id' },
  providers: { kind: 'providers', schema: ProviderRecord },
  comments: { kind: 'comments', schema: CommentRecord },
  commentSettings: { kind: 'comment_settings', schema: CommentSettingsRecord },
  automations: { kind: 'automations', schema: AutomationRecord },
  automationRuns: { kind: 'automation_runs', schema: AutomationRunRecord },
} as const satisfies Record<string, { kind: string; schema: z.ZodType; idField?: string }>;

type ResourceCollections = typeof RESOURCE_COLLECTIONS;
export type Stores = {
  [K in keyof ResourceCollections]: Collection<z.output<ResourceCollections[K]['schema']>>;
};

const built = new WeakMap<Database.Database, Stores>();

/**
 * Every resource collection of the emulator's workspace, over one database: built once per database (a
 * Collection holds nothing but its database, kind and id field), since handlers ask for them on every request.
 */
export function stores(db: Database.Database): Stores {
  let collections = built.get(db);
  if (!collections) {
    // Typed by the table: each collection's documents are its schema's output (Stores).
    collections = Object.fromEntries(
      Object.entries(RESOURCE_COLLECTIONS).map(([name, c]) => [
        name,
        new Collection<Record<string, unknown>>(db, c.kind, 'idField' in c ? c.idField : undefined),
      ]),
    ) as unknown as Stores;
    built.set(db, collections);
  }
  return collections;
}
