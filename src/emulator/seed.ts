import type Database from 'better-sqlite3';
import type { EmulatorContext } from './route-handler.js';
import { seedGroups, seedStages, seedTemplates } from './state/seed-fixtures.js';
import { seedAutomations, seedComments, seedCommentSettings } from './state/seed-engagement.js';
import { buildWorkspace } from './state/seed-workspace.js';
import { stores } from './state/stores.js';
import { Collection } from './state/collection.js';
import { CAMPAIGN_PROGRESS_KIND, CAMPAIGN_RECIPIENTS_KIND } from './domain/campaigns/campaign-sender.js';
import { DELIVERY_PROGRESS_KIND } from './domain/messages/delivery-progress.js';
import { TEMPLATE_THROTTLES_KIND } from './domain/templates/template-throttle.js';
import { AI_REPLY_JOBS_KIND } from './ai-reply/pending-replies.js';

export { SEED_IDS, DEFAULT_STAGES } from './state/seed-fixtures.js';

export interface SeedOptions {
  /** Generated chats (one contact, one conversation, 3-5 messages each) on top of the named ones; scales data for benchmarks. @default 24 */
  size?: number;
}

/** Bounded so a typo cannot fill the disk: 200,000 chats is about a million messages. */
export const MAX_SEED_SIZE = 200_000;

/** Kinds the seed owns besides the resource stores (emulator bookkeeping that a reset must clear too). */
const BOOKKEEPING_KINDS = [
  DELIVERY_PROGRESS_KIND,
  TEMPLATE_THROTTLES_KIND,
  CAMPAIGN_RECIPIENTS_KIND,
  CAMPAIGN_PROGRESS_KIND,
  AI_REPLY_JOBS_KIND,
];

/** Has this database a workspace already (a file database after a restart)? Then start-up should not seed again. */
export function isSeeded(db: Database.Database): boolean {
  return stores(db).accounts.count() > 0;
}

/**
 * Replaces the workspace's resources with the seeded state: one connected account per channel kind
 * plus a second phone number, contacts and chats for each provider outcome and account rule
 * (SEED_IDS), `size` generated chats, tickets, leads, the default stages, one group, templates
 * in several review states, two comments with one keyword rule, and one automation per trigger kind. Keys and webhooks (the platform's) are left alone. Timestamps are
 * relative to the emulator clock, so the open service windows are open now.
 */
export function seed(ctx: Pick<EmulatorContext, 'db' | 'clock'>, options: SeedOptions = {}): void {
  const size = options.size ?? 24;
  if (!Number.isInteger(size) || size < 0 || size > MAX_SEED_SIZE) {
    throw new RangeError(`Expected seed size to be an integer from 0 to ${MAX_SEED_SIZE}, got ${size}`);
  }
  const now = ctx.clock.now();
  const s = stores(ctx.db);
  const workspace = buildWorkspace(size, now);
  const createdAt = workspace.accounts[0]!.created_at;
  const oldestFirst = <T extends { created_at: string }>(docs: T[]): T[] =>
    [...docs].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  ctx.db.transaction(() => {
    for (const collection of Object.values(s)) collection.clear();
    for (const kind of BOOKKEEPING_KINDS) new Collection<{ id: string }>(ctx.db, kind).clear();
    // Inserted oldest first, so newest-first lists read like the real history.
    s.accounts.insertMany(workspace.accounts);
    s.groups.insertMany(seedGroups(createdAt));
    // Reversed, so the newest-first list reads in board order (new … lost).
    s.stages.insertMany(seedStages().reverse());
    s.templates.insertMany(seedTemplates(createdAt));
    s.contacts.insertMany(oldestFirst(workspace.contacts));
    s.conversations.insertMany(oldestFirst(workspace.chats.map((c) => c.conversation)));
    s.messages.insertMany(oldestFirst(workspace.chats.flatMap((c) => c.messages)));
    s.tickets.insertMany(oldestFirst(workspace.tickets));
    s.leads.insertMany(oldestFirst(workspace.leads));
    s.commentSettings.insert(seedCommentSettings(createdAt));
    s.comments.insertMany(seedComments(now));
    s.automations.insertMany(seedAutomations(createdAt, now));
  })();
}
