import { Message } from '../schemas/message.js';
import {
  Template,
  TemplateCreate,
  TemplateDraftValidate,
  TemplateListQuery,
  TemplateSend,
  TemplateValidation,
} from '../schemas/template.js';
import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { IdParams, NoContent } from '../schemas/common.js';

export const templates = {
  list: endpoint({
    method: 'GET',
    path: '/v1/templates',
    summary: "List templates with the service's and the provider's status",
    scope: 'templates:read',
    query: TemplateListQuery,
    response: page(Template),
    paginated: true,
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/templates',
    summary: 'Create a draft and submit it to the provider',
    scope: 'templates:write',
    body: TemplateCreate,
    response: Template,
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/templates/:id',
    summary: 'One template with its category and provider status',
    scope: 'templates:read',
    params: IdParams,
    response: Template,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/v1/templates/:id',
    summary: 'Delete a template from the provider and the local registry',
    scope: 'templates:write',
    params: IdParams,
    response: NoContent,
    status: 204,
  }),
  validateDraft: endpoint({
    method: 'POST',
    path: '/v1/templates/generate/validate',
    summary: 'Validate generated copy or a draft objective before storing it',
    scope: 'templates:write',
    body: TemplateDraftValidate,
    response: TemplateValidation,
    // A check that stores nothing, so read-only plans may use it.
    write: false,
  }),
  validate: endpoint({
    method: 'POST',
    path: '/v1/templates/:id/validate',
    summary: 'Category fit, policy risk and UTILITY coaching of a stored template',
    scope: 'templates:write',
    params: IdParams,
    response: TemplateValidation,
  }),
  submit: endpoint({
    method: 'POST',
    path: '/v1/templates/:id/submit',
    summary: 'Submit a template to the provider for review',
    scope: 'templates:write',
    params: IdParams,
    response: Template,
  }),
  send: endpoint({
    method: 'POST',
    path: '/v1/templates/:id/send',
    summary: 'Send an approved template to a phone (works outside the 24-hour window)',
    scope: 'templates:send',
    params: IdParams,
    body: TemplateSend,
    response: Message,
    status: 201,
  }),
};
