import type { z } from 'zod';
import type { ConnectedAccountUpdate, ConnectSession, ConnectSessionCreate } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { Account } from '../../state/records.js';
import { statement } from '../../state/statement.js';
import { stores } from '../../state/stores.js';
import { applyPatch } from '../shared/changed-fields.js';

/** Where the browser handoff would take the workspace owner; the emulator has no OAuth page, so it is a stand-in address. */
export const CONNECT_BASE_URL = 'https://connect.convo-kit.dev/sessions';
/** A connect session's link is good for this long (emulator clock). */
export const CONNECT_SESSION_TTL_MS = 15 * 60 * 1000;

/**
 * PATCH /v1/channels/:integration_id: this account's AI switches and its group. Comment AI replies
 * exist only where there are comments (photo_social, social_page).
 */
export function updateAccount(
  ctx: EmulatorContext,
  integrationId: string,
  patch: z.output<typeof ConnectedAccountUpdate>,
): Account {
  const s = stores(ctx.db);
  if (patch.group_id) s.groups.require(patch.group_id, 'group');
  return s.accounts.update(integrationId, (account) => {
    if (patch.ai_comment_replies_enabled !== undefined && account.channel === 'phone') {
      throw new ApiFailure(
        'INVALID_PLATFORM',
        'ai_comment_replies_enabled applies to photo_social and social_page accounts; the phone channel has no comments',
        {
          details: [
            {
              path: 'ai_comment_replies_enabled',
              in: 'body',
              message: `not available on the ${account.channel} channel`,
            },
          ],
        },
      );
    }
    return applyPatch(account, patch).next;
  });
}

// Nothing reads a session after it is answered; those past their expiry are dropped, so the table holds at
// most CONNECT_SESSION_TTL_MS of them instead of growing with every call.
const DROP_EXPIRED = `DELETE FROM docs WHERE kind = ? AND json_extract(data, '$.expires_at') <= ?`;

/** POST /v1/channels/connect-sessions: a short-lived browser handoff for the provider's OAuth. */
export function createConnectSession(
  ctx: EmulatorContext,
  body: z.output<typeof ConnectSessionCreate>,
): ConnectSession {
  const id = ctx.newId('cs');
  const now = ctx.clock.now();
  const sessions = stores(ctx.db).connectSessions;
  statement(ctx.db, DROP_EXPIRED).run(sessions.kind, new Date(now).toISOString());
  return sessions.insert({
    id,
    channel: body.channel,
    url: `${CONNECT_BASE_URL}/${id}?channel=${body.channel}`,
    return_url: body.return_url ?? null,
    expires_at: new Date(now + CONNECT_SESSION_TTL_MS).toISOString(),
    created_at: new Date(now).toISOString(),
  });
}
