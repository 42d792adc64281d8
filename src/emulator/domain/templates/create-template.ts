import type { z } from 'zod';
import type { TemplateCreate } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { TemplateRecord } from '../../state/records.js';
import { stores } from '../../state/stores.js';
import { resolveTemplateSender } from './template-sender.js';
import { validateTemplateCopy } from './template-validation.js';
import { templateVariables } from './template-variables.js';

/**
 * POST /v1/templates: stores the template and submits it to the provider at once (`pending_review`);
 * the provider's verdict arrives through `POST /_emulator/templates/:id/review`. A name is unique per
 * language, like the provider's; a pinned number must be an active phone number of the workspace.
 */
export function createTemplate(ctx: EmulatorContext, body: z.output<typeof TemplateCreate>): TemplateRecord {
  const s = stores(ctx.db);
  const language = body.language ?? 'en';
  if (s.templates.count({ name: body.name, language }) > 0) {
    throw new ApiFailure('VALIDATION_FAILED', `A template named ${body.name} (${language}) exists already`, {
      details: [{ path: 'name', in: 'body', message: 'already used by another template of this language' }],
    });
  }
  if (body.pinned_integration_id != null)
    resolveTemplateSender(s, { id: body.name, pinned_integration_id: null }, body.pinned_integration_id);
  const now = ctx.clock.iso();
  return s.templates.insert({
    id: ctx.newId('tpl'),
    name: body.name,
    language,
    category: body.category,
    status: 'pending_review',
    quality: 'unknown',
    body: body.body,
    variables: templateVariables(body.body),
    pinned_integration_id: body.pinned_integration_id ?? null,
    rejection_reason: null,
    validation: validateTemplateCopy(body.body, body.category),
    created_at: now,
    updated_at: now,
  });
}

/** POST …/submit: a `draft` or `rejected` template goes (back) to review; any other state is 422 INVALID_STATE. */
export function submitTemplate(ctx: EmulatorContext, id: string): TemplateRecord {
  const { templates } = stores(ctx.db);
  return templates.update(id, (t) => {
    if (t.status !== 'draft' && t.status !== 'rejected') {
      throw new ApiFailure(
        'INVALID_STATE',
        `Template ${t.id} is ${t.status}; only draft or rejected templates can be submitted`,
        { details: [{ status: t.status, allowed: ['draft', 'rejected'] }] },
      );
    }
    return { ...t, status: 'pending_review', rejection_reason: null, updated_at: ctx.clock.iso() };
  });
}
