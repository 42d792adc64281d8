import { type CrmContext } from './crm-context.js';
import { applyContact, applyConversation } from './crm-records.js';

export interface BackfillOptions {
  /** Stop after this many records of each kind (a bound for huge workspaces). @default 100000 */
  maxPerKind?: number;
  /** Records per request (1-100). @default 100 */
  pageSize?: number;
}

export interface BackfillResult {
  contacts: number;
  conversations: number;
}

/**
 * Builds or rebuilds the CRM from the service: pages through every contact and conversation.
 * Safe to run while events arrive, because contacts keep the newest `updated_at` either way.
 */
export async function backfill(ctx: CrmContext, options: BackfillOptions = {}): Promise<BackfillResult> {
  const max = options.maxPerKind ?? 100_000;
  const limit = options.pageSize ?? 100;
  const result: BackfillResult = { contacts: 0, conversations: 0 };
  for await (const contact of ctx.client.contacts.list({ limit })) {
    applyContact(ctx.db, contact);
    if (++result.contacts >= max) break;
  }
  for await (const conversation of ctx.client.conversations.list({ limit })) {
    applyConversation(ctx.db, conversation);
    if (++result.conversations >= max) break;
  }
  return result;
}
