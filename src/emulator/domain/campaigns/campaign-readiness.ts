import type { CampaignRecord } from '../../state/records.js';
import type { Stores } from '../../state/stores.js';
import { requireApproved } from '../templates/send-template.js';
import { resolveTemplateSender } from '../templates/template-sender.js';
import { fillTemplate } from '../templates/template-variables.js';

/**
 * What a campaign needs to go, the same for every recipient, so a gap would fail each send: a number to
 * send from (the spec's sender order) and every variable its template uses, filled within the message
 * bound (400 naming `variables.<n>`, or `variables`). Checked when it is scheduled, while its template may
 * still await approval, and with `approved` when it is sent or its schedule falls due (docs/outbound.md).
 * Throws the refusal; nothing is sent.
 */
export function requireCampaignReady(
  s: Stores,
  campaign: Pick<CampaignRecord, 'template_id' | 'integration_id' | 'variables'>,
  { approved }: { approved: boolean },
): void {
  const stored = s.templates.get(campaign.template_id);
  const template = approved ? requireApproved(stored, campaign.template_id) : stored;
  if (!template) return;
  resolveTemplateSender(s, template, campaign.integration_id ?? undefined);
  fillTemplate(template.body, campaign.variables, 'variables', `template ${template.name}`);
}
