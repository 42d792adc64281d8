import type Database from 'better-sqlite3';
import type { KnowledgeEntry } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { extractTextInChildProcess } from '../../knowledge-files/parse-pool.js';
import { requireNoInjection } from './prompt-injection.js';

/** Entries one group may hold (each up to 100,000 characters), so a reply's knowledge search stays bounded. */
export const KNOWLEDGE_ENTRIES_PER_GROUP = 200;

export interface NewKnowledge {
  type: KnowledgeEntry['type'];
  title: string;
  content: string;
  source: KnowledgeEntry['source'];
  filename: string | null;
}

/**
 * Stores a knowledge entry after the prompt-injection scan of its title and content: a match is 422
 * PROMPT_INJECTION_DETECTED and nothing is stored. A full group is 422 INVALID_STATE.
 */
export function addKnowledge(ctx: EmulatorContext, groupId: string, input: NewKnowledge): KnowledgeEntry {
  const s = stores(ctx.db);
  s.groups.require(groupId, 'group');
  requireNoInjection({ title: input.title, content: input.content });
  return ctx.db.transaction(() => {
    if (s.knowledge.count({ group_id: groupId }) >= KNOWLEDGE_ENTRIES_PER_GROUP) {
      throw new ApiFailure(
        'INVALID_STATE',
        `Group ${groupId} already holds ${KNOWLEDGE_ENTRIES_PER_GROUP} knowledge entries, the most one group may have; delete one first`,
      );
    }
    return s.knowledge.insert({
      entry_id: ctx.newId('kn'),
      group_id: groupId,
      ...input,
      created_at: ctx.clock.iso(),
    });
  })();
}

/**
 * POST …/knowledge/files: the file's text, extracted in memory by the parser of its type (in a child process
 * of its own, under the parse bounds), stored as an
 * `upload` entry under its file name, after the same injection scan as a JSON entry. The file's bytes
 * are dropped with the request.
 */
export async function uploadKnowledge(
  ctx: EmulatorContext,
  groupId: string,
  input: { type: KnowledgeEntry['type']; title: string; file: File },
): Promise<KnowledgeEntry> {
  stores(ctx.db).groups.require(groupId, 'group');
  const content = await extractTextInChildProcess(input.file.name, input.file);
  return addKnowledge(ctx, groupId, {
    type: input.type,
    title: input.title,
    content,
    source: 'upload',
    filename: input.file.name,
  });
}

export function deleteKnowledge(ctx: EmulatorContext, groupId: string, entryId: string): void {
  const s = stores(ctx.db);
  s.groups.require(groupId, 'group');
  const entry = s.knowledge.get(entryId);
  if (!entry || entry.group_id !== groupId) {
    throw new ApiFailure('NOT_FOUND', `Group ${groupId} has no knowledge entry with id ${JSON.stringify(entryId)}`);
  }
  s.knowledge.delete(entryId);
}

/**
 * The knowledge an account's AI replies may draw on: its group's entries, newest first (at most
 * KNOWLEDGE_ENTRIES_PER_GROUP); none for an account outside a group or an unknown account.
 */
export function groupKnowledge(db: Database.Database, integrationId: string): KnowledgeEntry[] {
  const s = stores(db);
  const groupId = s.accounts.get(integrationId)?.group_id;
  return groupId ? s.knowledge.all({ group_id: groupId }) : [];
}
