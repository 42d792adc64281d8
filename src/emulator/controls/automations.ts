import { z } from 'zod';
import { Automation } from '../../api/schemas/automation.js';
import { IdParams } from '../../api/schemas/common.js';
import {
  AutomationDefinition,
  defineAutomation,
  setAutomationStatus,
} from '../domain/automations/define-automation.js';
import { control } from '../platform/controls-router.js';

/** `POST /_emulator/automations`: the business defines an automation (the spec shows no route for it). */
export const automationControl = control({
  path: '/automations',
  summary:
    'Define an automation, or replace the one with the same id: a keyword, new-conversation, schedule or api ' +
    'trigger, its conditions and what it sends; keyword and new-conversation ones run on customer messages, ' +
    'schedule ones on the emulator clock',
  body: AutomationDefinition,
  response: Automation,
  errors: ['NOT_FOUND', 'INVALID_STATE', 'INVALID_PLATFORM'],
  run: (ctx, { body }) => defineAutomation(ctx, body),
});

/** `POST /_emulator/automations/:id/status`: the business pauses or resumes one. */
export const automationStatusControl = control({
  path: '/automations/:id/status',
  summary: 'Pause or resume an automation: a paused one does not run, a resumed schedule waits for its next time',
  params: IdParams,
  body: z.strictObject({ status: z.enum(['active', 'paused']) }),
  response: Automation,
  errors: ['NOT_FOUND'],
  run: (ctx, { params, body }) => setAutomationStatus(ctx, params.id, body.status),
});
