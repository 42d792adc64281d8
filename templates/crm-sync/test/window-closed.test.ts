import { join } from 'node:path';
import { isApiError } from 'convo-kit/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '../src/app-config.js';
import { OptedOutError, sendToConversation } from '../src/crm-actions.js';
import { type CrmContext } from '../src/crm-context.js';
import { listActivity, listConversations } from '../src/crm-queries.js';
import { startCrmSync } from '../src/crm-sync-app.js';
import { windowClosedTemplateFromEnv, WindowClosedError } from '../src/window-closed-template.js';
import { type Harness, startHarness } from './emulator-harness.js';

const DAY_SECONDS = 24 * 60 * 60;
const REPLY_WAITING = 'Hi {{1}}, there is an update on your order from {{2}}. Reply to this message to continue.';

describe('a reply once the 24-hour window has closed', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => h.close());

  /** A customer writes in by phone (the window opens), and the CRM has synced the conversation. */
  async function customer(handle: string, name: string) {
    await h.control('inbound', { channel: 'phone', from: { handle, name }, content: 'Where is my order?' });
    await h.settle();
    const row = listConversations(h.app.ctx.db).find((c) => c.customer_handle === handle);
    if (!row) throw new Error(`no conversation for ${handle} in the CRM`);
    return row;
  }

  /** A template created through the API, then approved by the provider control. */
  async function approvedTemplate(name: string, body: string): Promise<string> {
    const template = await h.app.ctx.client.templates.create({ name, category: 'UTILITY', body });
    await h.control(`templates/${template.id}/review`, { status: 'approved' });
    return template.id;
  }

  const closeWindow = () => h.control('clock', { advance_seconds: DAY_SECONDS + 1 });

  async function sentContents(conversationId: string): Promise<string[]> {
    const contents: string[] = [];
    for await (const message of h.app.ctx.client.conversations.listMessages({ id: conversationId }))
      if (message.direction === 'sent') contents.push(message.content);
    return contents;
  }

  it('sends the configured approved template instead, from the conversation’s number, and notes the unsent text', async () => {
    const conversation = await customer('+447700900150', 'Nora Window');
    expect(await sendToConversation(h.app.ctx, conversation.id, 'Looking into it now')).toMatchObject({ via: 'text' });
    await closeWindow();

    const templateId = await approvedTemplate('reply_waiting', REPLY_WAITING);
    const ctx: CrmContext = {
      ...h.app.ctx,
      windowClosedTemplate: {
        templateId,
        variables: (contact) => ({ '1': contact.name ?? 'there', '2': 'Convo Kit Shop' }),
      },
    };
    const reply = await sendToConversation(ctx, conversation.id, 'Your refund went through yesterday.');
    const expected =
      'Hi Nora Window, there is an update on your order from Convo Kit Shop. Reply to this message to continue.';
    const service = await h.app.ctx.client.conversations.get({ id: conversation.id });
    expect(reply).toMatchObject({
      via: 'window_closed_template',
      templateId,
      message: {
        content: expected,
        conversation_id: conversation.id,
        integration_id: service.integration_id,
        template_id: templateId,
      },
    });
    expect(await sentContents(conversation.id)).toEqual([expected, 'Looking into it now']);
    // Template sends do not reopen the window: free text is still refused by the service.
    await expect(
      h.app.ctx.client.conversations.sendMessage({ id: conversation.id, content: 'Still there?' }),
    ).rejects.toMatchObject({ code: 'OUTSIDE_SERVICE_WINDOW' });

    await h.waitFor(() =>
      listActivity(h.app.ctx.db, { contactId: conversation.contact_id }).some(
        (a) => a.kind === 'message.sent' && a.summary.includes(expected),
      ),
    );
    const note = listActivity(h.app.ctx.db, { contactId: conversation.contact_id }).find(
      (a) => a.kind === 'crm.window_closed',
    );
    expect(note?.summary).toBe(
      '24-hour window closed: sent template reply_waiting instead; not sent: "Your refund went through yesterday."',
    );
  });

  it('without a template configured, refuses with OUTSIDE_SERVICE_WINDOW naming the setting, and sends nothing', async () => {
    const conversation = await customer('+447700900151', 'Omar Late');
    await closeWindow();
    const error = await sendToConversation(h.app.ctx, conversation.id, 'Hello?').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WindowClosedError);
    expect(error).toMatchObject({ code: 'OUTSIDE_SERVICE_WINDOW', conversationId: conversation.id });
    expect((error as Error).message).toContain('WINDOW_CLOSED_TEMPLATE_ID');

    const response = await fetch(`${h.app.url}/api/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Hello?' }),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('OUTSIDE_SERVICE_WINDOW');
    expect(body.error.message).toContain('WINDOW_CLOSED_TEMPLATE_ID');
    expect(await sentContents(conversation.id)).toEqual([]);
  });

  it('an app configured by WINDOW_CLOSED_TEMPLATE_* falls back over its HTTP API', async () => {
    const conversation = await customer('+447700900152', 'Pia Env');
    await closeWindow();
    const templateId = await approvedTemplate('reply_waiting_env', REPLY_WAITING);
    const config = readConfig({
      CONVO_KIT_BASE_URL: h.config.baseUrl,
      CONVO_KIT_API_KEY: h.config.apiKey,
      CONVO_KIT_WEBHOOK_SECRET: 'whsec_unused_here',
      PORT: '0',
      CRM_DB_PATH: join(h.dir, 'env-app', 'crm.db'),
      DELIVERIES_DB_PATH: join(h.dir, 'env-app', 'deliveries.db'),
      WINDOW_CLOSED_TEMPLATE_ID: templateId,
      WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"1":"there","2":"Convo Kit Shop"}',
    });
    const app = await startCrmSync(config);
    try {
      const response = await fetch(`${app.url}/api/conversations/${conversation.id}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Your parcel is at the depot.' }),
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({
        via: 'window_closed_template',
        templateId,
        message: {
          content: expect.stringMatching(/^Hi there, there is an update on your order from Convo Kit Shop\./),
        },
      });
    } finally {
      await app.close();
    }
    expect((await sentContents(conversation.id)).some((c) => c.includes('depot'))).toBe(false);
  });

  it('passes on the service’s refusal of the template (not approved, a variable missing), and sends nothing', async () => {
    const conversation = await customer('+447700900153', 'Quinn Refused');
    await closeWindow();
    const pending = await h.app.ctx.client.templates.create({
      name: 'reply_pending',
      category: 'UTILITY',
      body: REPLY_WAITING,
    });
    const notApproved = await sendToConversation(
      { ...h.app.ctx, windowClosedTemplate: { templateId: pending.id, variables: { '1': 'x', '2': 'y' } } },
      conversation.id,
      'Hello',
    ).catch((e: unknown) => e);
    expect(isApiError(notApproved, 'TEMPLATE_NOT_APPROVED')).toBe(true);

    const approved = await approvedTemplate('reply_two_vars', REPLY_WAITING);
    const missing = await sendToConversation(
      { ...h.app.ctx, windowClosedTemplate: { templateId: approved, variables: { '1': 'there' } } },
      conversation.id,
      'Hello',
    ).catch((e: unknown) => e);
    expect(isApiError(missing, 'VALIDATION_FAILED')).toBe(true);
    expect(JSON.stringify((missing as { details: unknown }).details)).toContain('variables.2');
    expect(await sentContents(conversation.id)).toEqual([]);
    expect(
      listActivity(h.app.ctx.db, { contactId: conversation.contact_id }).filter((a) => a.kind === 'crm.window_closed'),
    ).toEqual([]);
  });

  it('sends no fallback template to a contact who opted out (0003) either', async () => {
    // A number ending 0003: its contact is created opted out (docs/emulator.md), so the CRM refuses before any send.
    const conversation = await customer('+447700900003', 'Late Optout');
    await closeWindow();
    const templateId = await approvedTemplate('reply_optout', REPLY_WAITING);
    const error = await sendToConversation(
      { ...h.app.ctx, windowClosedTemplate: { templateId, variables: { '1': 'there', '2': 'us' } } },
      conversation.id,
      'Hello',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptedOutError);
    expect(error).toMatchObject({ source: 'crm', contactId: conversation.contact_id });
    expect(await sentContents(conversation.id)).toEqual([]);
  });
});

describe('the WINDOW_CLOSED_TEMPLATE_* settings', () => {
  it('are optional: without them there is no fallback', () => {
    expect(windowClosedTemplateFromEnv({})).toBeUndefined();
  });

  it('read the template id and its variables', () => {
    expect(
      windowClosedTemplateFromEnv({
        WINDOW_CLOSED_TEMPLATE_ID: 'tpl_reply_waiting',
        WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"1":"there","2":"Convo Kit Shop"}',
      }),
    ).toEqual({ templateId: 'tpl_reply_waiting', variables: { '1': 'there', '2': 'Convo Kit Shop' } });
    expect(windowClosedTemplateFromEnv({ WINDOW_CLOSED_TEMPLATE_ID: 'tpl_no_vars' })).toEqual({
      templateId: 'tpl_no_vars',
      variables: {},
    });
  });

  it.each([
    [
      { WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"1":"x"}' },
      'WINDOW_CLOSED_TEMPLATE_VARIABLES is set but WINDOW_CLOSED_TEMPLATE_ID is not',
    ],
    [{ WINDOW_CLOSED_TEMPLATE_ID: 'tpl x' }, 'WINDOW_CLOSED_TEMPLATE_ID must be a template id'],
    [{ WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: 'nope' }, 'is not valid JSON'],
    [{ WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: '["x"]' }, 'must be a JSON object'],
    [
      { WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"name":"x"}' },
      'has "name": expected a variable position such as "1"',
    ],
    [{ WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"1":5}' }, 'entry "1" must be text'],
    [{ WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"1":""}' }, 'entry "1" must be text'],
    [
      { WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: `{"2":"${'x'.repeat(1025)}"}` },
      'WINDOW_CLOSED_TEMPLATE_VARIABLES entry "2" must be text of 1 to 1024 characters',
    ],
    [
      { WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: '{"100":"x"}' },
      'WINDOW_CLOSED_TEMPLATE_VARIABLES has "100": expected a variable position such as "1"',
    ],
    [{ WINDOW_CLOSED_TEMPLATE_ID: 'tpl_a', WINDOW_CLOSED_TEMPLATE_VARIABLES: 'null' }, 'must be a JSON object'],
  ])('refuse %j with a message naming the setting', (env, message) => {
    expect(() => windowClosedTemplateFromEnv(env)).toThrow(message);
  });
});
