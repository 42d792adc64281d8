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
import { KeyRecord, KEYS_KIND } from '../state/key-store.js';
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
} from '../state/records.js';
import { StoredEndpoint, WEBHOOKS_KIND } from '../state/webhook-store.js';

/**
 * The schema each stored kind is checked with when a state document is imported, keyed by the kind's name in
 * the database (src/emulator/state/stores.ts). A kind missing here (the emulator's own bookkeeping: campaign
 * progress, delivery progress, …) is checked as an object with a string id; test/emulator/saved-state.test.ts
 * holds that every resource store has its schema here.
 */
export const COLLECTION_SCHEMAS: Record<string, z.ZodType> = {
  accounts: Account,
  groups: Group,
  contacts: Contact,
  conversations: Conversation,
  messages: Message,
  tickets: Ticket,
  leads: Lead,
  stages: Stage,
  templates: TemplateRecord,
  journeys: JourneyRecord,
  journey_releases: JourneyRelease,
  enrollments: EnrollmentRecord,
  journey_actions: JourneyAction,
  campaigns: CampaignRecord,
  connect_sessions: ConnectSession,
  knowledge: KnowledgeEntry,
  providers: ProviderRecord,
  comments: CommentRecord,
  comment_settings: CommentSettingsRecord,
  automations: AutomationRecord,
  automation_runs: AutomationRunRecord,
  [KEYS_KIND]: KeyRecord,
  [WEBHOOKS_KIND]: StoredEndpoint,
};
