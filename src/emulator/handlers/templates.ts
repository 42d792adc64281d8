import type { endpoints } from '../../api/endpoints/index.js';
import { ApiFailure } from '../api-failure.js';
import { createTemplate, submitTemplate } from '../domain/templates/create-template.js';
import { sendTemplate } from '../domain/templates/send-template.js';
import { validateTemplateCopy } from '../domain/templates/template-validation.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

export const templatesHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).templates.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: { status: query.status, category: query.category },
    }),

  create: ({ body }, ctx) => createTemplate(ctx, body),

  get: ({ params }, ctx) => stores(ctx.db).templates.require(params.id, 'template'),

  delete: ({ params }, ctx) => {
    if (!stores(ctx.db).templates.delete(params.id))
      throw new ApiFailure('NOT_FOUND', `No template with id ${JSON.stringify(params.id)}`);
  },

  validateDraft: ({ body }, _ctx) =>
    validateTemplateCopy([body.body, body.objective].filter((t) => t !== undefined).join('\n'), body.category),

  validate: ({ params }, ctx) => {
    const { templates } = stores(ctx.db);
    const template = templates.require(params.id, 'template');
    const validation = validateTemplateCopy(template.body, template.category);
    templates.put({ ...template, validation });
    return validation;
  },

  submit: ({ params }, ctx) => submitTemplate(ctx, params.id),

  send: ({ params, body }, ctx) =>
    sendTemplate(ctx, {
      template: stores(ctx.db).templates.require(params.id, 'template'),
      templateId: params.id,
      phone: `+${body.to}`,
      integrationId: body.integration_id,
      variables: body.variables ?? {},
      source: 'api',
    }),
} satisfies RouteHandlers<typeof endpoints.templates>;
