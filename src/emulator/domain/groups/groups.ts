import type { z } from 'zod';
import type { ChannelGroup, ChannelGroupCreate, ChannelGroupUpdate } from '../../../resources/index.js';
import type { Page } from '../../../api/schemas/page.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { Group } from '../../state/records.js';
import { stores, type Stores } from '../../state/stores.js';
import { applyPatch } from '../shared/changed-fields.js';

/** A group as the API shows it: the stored record plus the accounts assigned to it (newest first). */
export function groupView(s: Stores, group: Group): ChannelGroup {
  const integrationIds = s.accounts.all({ group_id: group.group_id }).map((a) => a.integration_id);
  return { ...group, integration_ids: integrationIds };
}

export function listGroups(ctx: EmulatorContext, page: { limit?: number; cursor?: string }): Page<ChannelGroup> {
  const s = stores(ctx.db);
  const groups = s.groups.list(page);
  return { ...groups, data: groups.data.map((g) => groupView(s, g)) };
}

export function createGroup(ctx: EmulatorContext, body: z.output<typeof ChannelGroupCreate>): ChannelGroup {
  const s = stores(ctx.db);
  const now = ctx.clock.iso();
  const group = s.groups.insert({
    group_id: ctx.newId('grp'),
    name: body.name,
    ai_enabled: body.ai_enabled ?? false,
    brain_config: body.brain_config ?? {},
    created_at: now,
    updated_at: now,
  });
  return groupView(s, group);
}

/** `brain_config` given replaces the stored one as a whole (the contract's rule). */
export function updateGroup(
  ctx: EmulatorContext,
  groupId: string,
  patch: z.output<typeof ChannelGroupUpdate>,
): ChannelGroup {
  const s = stores(ctx.db);
  const group = s.groups.update(groupId, (current) => {
    const { next, changed } = applyPatch(current, patch);
    return changed.length > 0 ? { ...next, updated_at: ctx.clock.iso() } : current;
  });
  return groupView(s, group);
}

/**
 * Deletes a group: its accounts return to the workspace defaults (no group), and its knowledge and
 * providers go with it. Provider overrides set on the accounts themselves stay.
 */
export function deleteGroup(ctx: EmulatorContext, groupId: string): void {
  const s = stores(ctx.db);
  ctx.db.transaction(() => {
    s.groups.require(groupId, 'group');
    for (const account of s.accounts.all({ group_id: groupId })) s.accounts.put({ ...account, group_id: null });
    for (const entry of s.knowledge.all({ group_id: groupId })) s.knowledge.delete(entry.entry_id);
    for (const provider of s.providers.all({ owner: 'group', owner_id: groupId })) s.providers.delete(provider.id);
    s.groups.delete(groupId);
  })();
}
