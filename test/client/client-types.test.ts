import { describe, expectTypeOf, it } from 'vitest';
import { type Conversation } from '../../src/api/schemas/conversation.js';
import { type Ticket, type TicketStatus } from '../../src/api/schemas/ticket.js';
import { type z } from 'zod';
import {
  type ApiPromise,
  type Client,
  createClient,
  type PagePromise,
  type RequestOptions,
} from '../../src/client/index.js';

// Types only: these calls are never made (the client is created, not used).
const client: Client = createClient({ apiKey: 'svc_test_' + 'x'.repeat(32) });

describe('method types derived from the contract table', () => {
  it('tickets.update merges path params, body keys and the If-Match header option', () => {
    type Input = Parameters<typeof client.tickets.update>[0];
    expectTypeOf<Input['id']>().toEqualTypeOf<string>();
    expectTypeOf<Input['status']>().toEqualTypeOf<z.output<typeof TicketStatus> | undefined>();
    expectTypeOf<Input['ifMatch']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(client.tickets.update).returns.toEqualTypeOf<ApiPromise<Ticket>>();
    expectTypeOf(client.tickets.update).parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    // @ts-expect-error -- `id` is required
    void (() => client.tickets.update({ status: 'resolved' }));
    // @ts-expect-error -- not a ticket status
    void (() => client.tickets.update({ id: 'tkt_1', status: 'done' }));
  });

  it('lists return a PagePromise of their items', () => {
    expectTypeOf(client.conversations.list).returns.toEqualTypeOf<
      PagePromise<Conversation, { data: Conversation[]; pagination: { has_more: boolean; next_cursor: string | null } }>
    >();
    expectTypeOf<Parameters<typeof client.conversations.list>[0]>().toEqualTypeOf<
      | {
          limit?: number | undefined;
          cursor?: string | undefined;
          status?: 'active' | 'snoozed' | 'closed' | undefined;
          channel?: 'phone' | 'photo_social' | 'social_page' | undefined;
          assignee?: string | undefined;
        }
      | undefined
    >();
    void (async () => {
      for await (const c of client.conversations.list({ status: 'active' }))
        expectTypeOf(c).toEqualTypeOf<Conversation>();
    });
  });

  it('only the send routes take idempotencyKey, and resolve to the message', () => {
    expectTypeOf<Parameters<typeof client.messages.send>[0]>()
      .toHaveProperty('idempotencyKey')
      .toEqualTypeOf<string | undefined>();
    expectTypeOf<Parameters<typeof client.conversations.sendMessage>[0]>().toHaveProperty('idempotencyKey');
    expectTypeOf<Parameters<typeof client.tickets.get>[0]>().not.toHaveProperty('idempotencyKey');
    expectTypeOf<Awaited<ReturnType<typeof client.messages.send>>['content']>().toEqualTypeOf<string>();
  });

  it('a route without required input can be called without arguments', () => {
    expectTypeOf(client.status.get).toBeCallableWith();
    expectTypeOf(client.tickets.get).parameter(0).toEqualTypeOf<{ id: string }>();
  });
});
