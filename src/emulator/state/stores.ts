import type Database from 'better-sqlite3';
import type { Contact, Conversation, Message, Ticket } from '../../resources/index.js';
import { Collection } from './collection.js';
import type { ConnectSession, KnowledgeEntry, Lead, Stage } from '../../resources/index.js';
import type {
  Account,
  AutomationRecord,
  AutomationRunRecord,
  CommentRecord,
  CommentSettingsRecord,
  CampaignRecord,
  EnrollmentRecord,
  Group,
  JourneyAction,
  JourneyRecord,
  JourneyRelease,
  ProviderRecord,
  TemplateRecord,
} from './records.js';

/** Every resource collection of the emulator's workspace, over one database. */
export function stores(db: Database.Database) {
  return {
    accounts: new Collection<Account>(db, 'accounts', 'integration_id'),
    groups: new Collection<Group>(db, 'groups', 'group_id'),
    contacts: new Collection<Contact>(db, 'contacts'),
    conversations: new Collection<Conversation>(db, 'conversations'),
    messages: new Collection<Message>(db, 'messages'),
    tickets: new Collection<Ticket>(db, 'tickets'),
    leads: new Collection<Lead>(db, 'leads'),
    stages: new Collection<Stage>(db, 'stages'),
    templates: new Collection<TemplateRecord>(db, 'templates'),
    journeys: new Collection<JourneyRecord>(db, 'journeys'),
    journeyReleases: new Collection<JourneyRelease>(db, 'journey_releases'),
    enrollments: new Collection<EnrollmentRecord>(db, 'enrollments'),
    journeyActions: new Collection<JourneyAction>(db, 'journey_actions'),
    campaigns: new Collection<CampaignRecord>(db, 'campaigns'),
    connectSessions: new Collection<ConnectSession>(db, 'connect_sessions'),
    knowledge: new Collection<KnowledgeEntry>(db, 'knowledge', 'entry_id'),
    providers: new Collection<ProviderRecord>(db, 'providers'),
    comments: new Collection<CommentRecord>(db, 'comments'),
    commentSettings: new Collection<CommentSettingsRecord>(db, 'comment_settings'),
    automations: new Collection<AutomationRecord>(db, 'automations'),
    automationRuns: new Collection<AutomationRunRecord>(db, 'automation_runs'),
  };
}
export type Stores = ReturnType<typeof stores>;
