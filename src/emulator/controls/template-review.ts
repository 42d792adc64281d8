import { z } from 'zod';
import { IdParams, Template } from '../../resources/index.js';
import { TemplateQuality, TemplateStatus } from '../../api/schemas/template.js';
import type { EmulatorContext } from '../route-handler.js';
import { control } from '../platform/controls-router.js';
import type { TemplateRecord } from '../state/records.js';
import { stores } from '../state/stores.js';

export const TemplateReviewBody = z.strictObject({
  status: TemplateStatus,
  reason: z.string().min(1).max(1000).optional(),
  /** The provider's quality rating; @default unchanged */
  quality: TemplateQuality.optional(),
});
export type TemplateReviewBody = z.output<typeof TemplateReviewBody>;

/** The provider reports its review (`POST /_emulator/templates/:id/review`): the template's status changes and template.status_update fires. */
export function reviewTemplate(ctx: EmulatorContext, templateId: string, body: TemplateReviewBody): TemplateRecord {
  const { templates } = stores(ctx.db);
  const template = templates.update(templateId, (t) => ({
    ...t,
    status: body.status,
    quality: body.quality ?? t.quality,
    rejection_reason: body.status === 'rejected' ? (body.reason ?? 'Rejected by the provider') : null,
    updated_at: ctx.clock.iso(),
  }));
  ctx.events.emit('template.status_update', {
    template_id: template.id,
    template_name: template.name,
    status: template.status,
    category: template.category,
    quality: template.quality,
    // A rejection without a reason gets a default one on the template; the event says the same.
    reason: template.rejection_reason ?? body.reason ?? null,
  });
  return template;
}

export const templateReviewControl = control({
  path: '/templates/:id/review',
  summary: "The provider's review of a template: its status (and quality) change and template.status_update fires",
  params: IdParams,
  body: TemplateReviewBody,
  response: Template,
  run: (ctx, { params, body }) => reviewTemplate(ctx, params.id, body),
});
