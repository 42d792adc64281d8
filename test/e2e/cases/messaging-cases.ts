import { expect } from 'vitest';
import { ApiError } from '../../../src/client/index.js';
import { findFirst, rejection } from '../harness.js';
import type { RouteCases } from './route-case.js';

/** Conversations and messages: every case looks its ids up through the client first. */
export const messagingCases = {
  'conversations.list': async ({ client }) => {
    const photo = await client.conversations.list({ channel: 'photo_social', limit: 100 });
    expect(photo.data.length).toBeGreaterThan(0);
    expect(photo.data.every((c) => c.channel === 'photo_social')).toBe(true);
    // The filter really narrowed: the unfiltered list has other channels.
    const all = await client.conversations.list({ limit: 100 });
    expect(all.data.some((c) => c.channel !== 'photo_social')).toBe(true);
  },

  'conversations.get': async ({ client }) => {
    const listed = await findFirst(client.conversations.list({ status: 'active' }), 'active conversation');
    const got = await client.conversations.get({ id: listed.id });
    expect(got).toMatchObject({
      id: listed.id,
      contact_id: listed.contact_id,
      channel: listed.channel,
      integration_id: listed.integration_id,
    });
  },

  'conversations.update': async ({ client }) => {
    const listed = await findFirst(
      client.conversations.list({ channel: 'social_page', status: 'active' }),
      'active social_page conversation',
    );
    const tag = `e2e-${Date.now()}`;
    const updated = await client.conversations.update({
      id: listed.id,
      tags: ['e2e', tag],
      assignee: 'agent_e2e',
      routing: { team: 'e2e-team' },
    });
    expect(updated).toMatchObject({ id: listed.id, tags: ['e2e', tag], assignee: 'agent_e2e' });
    const got = await client.conversations.get({ id: listed.id });
    expect(got.tags).toEqual(['e2e', tag]);
    expect(got.assignee).toBe('agent_e2e');
    expect(got.routing.team).toBe('e2e-team');
  },

  'conversations.listMessages': async ({ client }) => {
    const conversation = await findFirst(client.conversations.list({ channel: 'phone' }), 'phone conversation');
    const history: string[] = [];
    // limit 2: the walk crosses pages.
    for await (const m of client.conversations.listMessages({ id: conversation.id, limit: 2 })) {
      expect(m.conversation_id).toBe(conversation.id);
      history.push(m.id);
    }
    expect(history.length).toBeGreaterThan(2);
    const viaFilter: string[] = [];
    for await (const m of client.messages.list({ conversation_id: conversation.id, limit: 100 })) viaFilter.push(m.id);
    expect(history).toEqual(viaFilter);
    expect(await rejection(client.conversations.listMessages({ id: 'conv_does_not_exist' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  },

  'conversations.sendMessage': async ({ client }) => {
    const conversation = await findFirst(
      client.conversations.list({ channel: 'photo_social', status: 'active' }),
      'active photo_social conversation',
    );
    const content = `e2e reply ${Date.now()}`;
    const sent = await client.conversations.sendMessage({ id: conversation.id, content, buttons: ['Yes', 'No'] });
    expect(sent).toMatchObject({
      conversation_id: conversation.id,
      integration_id: conversation.integration_id,
      direction: 'sent',
      content,
      buttons: ['Yes', 'No'],
    });
    expect(sent.test).toBeUndefined();
    const latest = await client.conversations.listMessages({ id: conversation.id, limit: 1 });
    expect(latest.data[0]?.id).toBe(sent.id);
  },

  'messages.list': async ({ client }) => {
    const received = await client.messages.list({ direction: 'received', channel: 'phone', limit: 50 });
    expect(received.data.length).toBeGreaterThan(0);
    expect(received.data.every((m) => m.direction === 'received' && m.channel === 'phone')).toBe(true);
    const sent = await client.messages.list({ direction: 'sent', limit: 50 });
    expect(sent.data.length).toBeGreaterThan(0);
    expect(sent.data.every((m) => m.direction === 'sent')).toBe(true);
  },

  'messages.send': async ({ client }) => {
    const contact = await findFirst(
      client.contacts.list({ limit: 100 }),
      'contact on the social page',
      (c) => !c.opted_out && c.identities.some((i) => i.channel === 'social_page'),
    );
    const content = `e2e by contact ${Date.now()}`;
    const sent = await client.messages.send({ contact_id: contact.id, channel: 'social_page', content });
    expect(sent).toMatchObject({ channel: 'social_page', direction: 'sent', content });
    const conversation = await client.conversations.get({ id: sent.conversation_id });
    expect(conversation.contact_id).toBe(contact.id);
    expect((await client.messages.get({ id: sent.id })).content).toBe(content);
  },

  'messages.get': async ({ client }) => {
    const listed = await findFirst(client.messages.list({ direction: 'received' }), 'received message');
    const got = await client.messages.get({ id: listed.id });
    expect(got).toMatchObject({
      id: listed.id,
      content: listed.content,
      conversation_id: listed.conversation_id,
      direction: 'received',
    });
    expect(await rejection(client.messages.get({ id: 'msg_does_not_exist' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  },

  'messages.react': async ({ client }) => {
    const inbound = await findFirst(
      client.messages.list({ channel: 'phone', direction: 'received' }),
      'received phone message',
    );
    expect(await client.messages.react({ id: inbound.id, emoji: '👍' })).toEqual({
      message_id: inbound.id,
      emoji: '👍',
    });
    expect(await client.messages.get({ id: inbound.id })).toMatchObject({ reaction: '👍' });
    expect(await client.messages.react({ id: inbound.id, emoji: '' })).toEqual({ message_id: inbound.id, emoji: null });
    expect(await client.messages.get({ id: inbound.id })).toMatchObject({ reaction: null });
    // Not on the photo-social channel (spec).
    const photo = await findFirst(
      client.messages.list({ channel: 'photo_social', direction: 'received' }),
      'received photo_social message',
    );
    const refused = await rejection(client.messages.react({ id: photo.id, emoji: '👍' }));
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 422, code: 'INVALID_PLATFORM' });
  },
} satisfies RouteCases;
