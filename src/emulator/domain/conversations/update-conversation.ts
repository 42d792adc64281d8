import type { z } from 'zod';
import type { ConversationUpdate } from '../../../resources/index.js';
import type { Conversation } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { applyPatch } from '../shared/changed-fields.js';
import { requireStage, updateContact } from '../contacts/lead-stage.js';

/**
 * PATCH /v1/conversations/:id. Routing fields merge into the current routing; tags replace the list.
 * A stage is the contact's lead stage (updateContact moves it, its leads and all its conversations, and
 * announces contact.updated), so it must be a pipeline stage.
 * Announces conversation.closed when it becomes closed and conversation.assigned when the assignee changes.
 */
export function updateConversation(
  ctx: EmulatorContext,
  id: string,
  patch: z.output<typeof ConversationUpdate>,
): Conversation {
  const { conversations } = stores(ctx.db);
  let previous: Conversation | undefined;
  let changed: string[] = [];
  if (patch.stage !== undefined) {
    const { contact_id } = conversations.require(id, 'conversation');
    requireStage(ctx, patch.stage, 'stage');
    updateContact(ctx, contact_id, { lead_stage: patch.stage });
  }
  const updated = conversations.update(id, (current) => {
    previous = current;
    const result = applyPatch(current, {
      status: patch.status,
      assignee: patch.assignee,
      tags: patch.tags,
      // Already moved by updateContact; kept so a conversation stored out of step still takes it.
      stage: patch.stage,
      routing: patch.routing && { ...current.routing, ...patch.routing },
    });
    changed = result.changed;
    return result.next;
  });
  if (changed.includes('status') && updated.status === 'closed')
    ctx.events.emit('conversation.closed', { ...updated, closed_by: 'agent' });
  if (changed.includes('assignee')) {
    ctx.events.emit('conversation.assigned', {
      ...updated,
      previous_assignee: previous?.assignee ?? null,
      assigned_by: 'agent',
    });
  }
  return updated;
}
