import { expect } from 'vitest';
import { NotFoundError } from '../../../src/client/index.js';
import { SEED_IDS } from '../../../src/emulator/seed.js';
import { rejection } from '../harness.js';
import type { RouteCases } from './route-case.js';

/** Automations: seeded one per trigger kind, run by an explicit trigger. */
export const automationCases = {
  'automations.list': async ({ client }) => {
    const kinds: string[] = [];
    // limit 2: the walk crosses pages.
    for await (const automation of client.automations.list({ limit: 2 })) kinds.push(automation.trigger);
    expect(kinds.sort()).toEqual(['api', 'keyword', 'new_conversation', 'schedule']);
  },

  'automations.get': async ({ client }) => {
    const automation = await client.automations.get({ id: SEED_IDS.automations.api });
    expect(automation).toMatchObject({
      trigger: 'api',
      status: 'active',
      integration_id: SEED_IDS.phoneMain,
      content: 'Hi {{1}}, your order {{2}} is ready for pickup.',
    });
    expect(await rejection(client.automations.get({ id: 'aut_nope' }))).toBeInstanceOf(NotFoundError);
  },

  'automations.trigger': async ({ client, testClient, control }) => {
    const id = SEED_IDS.automations.api;
    const { conversation } = (await control('inbound', {
      channel: 'phone',
      integration_id: SEED_IDS.phoneMain,
      from: { handle: `+1415${String(Date.now()).slice(-6)}8` },
      content: 'Is my order ready?',
    })) as { conversation: { id: string; contact_id: string } };
    const run = await client.automations.trigger({
      id,
      conversation_id: conversation.id,
      variables: { '1': 'Dana', '2': 'A-1001' },
    });
    expect(run).toMatchObject({
      automation_id: id,
      status: 'completed',
      conversation_id: conversation.id,
      contact_id: conversation.contact_id,
    });
    const message = await client.messages.get({ id: run.message_id! });
    expect(message).toMatchObject({ source: 'automation', content: 'Hi Dana, your order A-1001 is ready for pickup.' });
    expect((await client.automations.get({ id })).last_run_at).toBe(run.created_at);
    // The test key's synthetic 201: nothing runs.
    const synthetic = await testClient.automations.trigger({ id, contact_id: conversation.contact_id });
    expect(synthetic).toMatchObject({ test: true, status: 'queued', message_id: null });
    expect((await client.automations.get({ id })).last_run_at).toBe(run.created_at);
    expect(
      await rejection(
        client.automations.trigger({ id: SEED_IDS.automations.schedule, conversation_id: conversation.id }),
      ),
    ).toMatchObject({ status: 422, code: 'INVALID_STATE' });
  },
} satisfies RouteCases;
