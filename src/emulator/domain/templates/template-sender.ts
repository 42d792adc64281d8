import { ApiFailure } from '../../api-failure.js';
import type { Account, TemplateRecord } from '../../state/records.js';
import type { Stores } from '../../state/stores.js';

/**
 * The number a template send goes out from (spec, POST /v1/templates/:id/send): the explicit
 * `integration_id`, then the template's pinned number, then the workspace's single active number;
 * several active numbers and no choice is 409 AMBIGUOUS_INTEGRATION.
 */
export function resolveTemplateSender(
  s: Stores,
  template: Pick<TemplateRecord, 'id' | 'pinned_integration_id'>,
  integrationId?: string,
): Account {
  const usable = (account: Account): Account => {
    if (account.channel !== 'phone') {
      throw new ApiFailure(
        'ACCOUNT_MISMATCH',
        `Templates are sent from phone numbers; ${account.integration_id} is a ${account.channel} account`,
      );
    }
    if (account.status !== 'active')
      throw new ApiFailure('INVALID_STATE', `Phone number ${account.integration_id} is disconnected`);
    return account;
  };
  if (integrationId !== undefined) return usable(s.accounts.require(integrationId, 'connected account'));
  if (template.pinned_integration_id !== null)
    return usable(s.accounts.require(template.pinned_integration_id, 'connected account'));
  const active = s.accounts.all({ channel: 'phone', status: 'active' });
  if (active.length === 1) return active[0]!;
  if (active.length === 0)
    throw new ApiFailure('INVALID_STATE', 'The workspace has no active phone number to send templates from');
  throw new ApiFailure(
    'AMBIGUOUS_INTEGRATION',
    `Template ${template.id} is not pinned and the workspace has ${active.length} active numbers; pass integration_id`,
    {
      details: active.map((a) => ({ integration_id: a.integration_id })),
    },
  );
}
