import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/client/index.js';
import { rejection, startE2e, type E2e } from './harness.js';

// The real emulator behind a proxy of the test's own that loses the first answer: the request reached the
// emulator and acted, then the connection dropped before the client read a byte. What the client retries
// then is exactly what a real network makes it retry.
let t: E2e;
let proxy: Server;
let proxyOrigin: string;
let forwarded = 0;
/** What happens to the first answer: the connection drops, or the answer is held past the client's timeout. */
let firstAnswer: 'drop' | 'hold' = 'drop';
beforeAll(async () => {
  t = await startE2e({ seed: 3 });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const index = forwarded++;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      void fetch(`${t.origin}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(async (answer) => {
        const body = Buffer.from(await answer.arrayBuffer());
        if (index === 0) return firstAnswer === 'drop' ? res.socket?.destroy() : undefined;
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(body);
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await t.close();
});

function throughProxy(lose: 'drop' | 'hold' = 'drop') {
  forwarded = 0;
  firstAnswer = lose;
  return t.clientFor(t.emulator.adminKey, { baseUrl: `${proxyOrigin}/v1`, timeoutMs: 1_000 });
}

async function openConversation(handle: string): Promise<string> {
  const inbound = (await t.control('inbound', {
    channel: 'phone',
    from: { handle },
    content: 'Where is my order?',
  })) as { conversation: { id: string } };
  return inbound.conversation.id;
}

async function sentWith(conversationId: string, content: string): Promise<string[]> {
  const { data } = await t.client.conversations.listMessages({ id: conversationId, limit: 100 });
  return data.filter((m) => m.content === content).map((m) => m.id);
}

describe('a lost answer, against the real emulator', () => {
  it('a POST without key support is not sent again, even with an Idempotency-Key header: one group, CONNECTION_LOST', async () => {
    const name = `Lost answer ${Date.now()}`;
    const error = await rejection(throughProxy().groups.create({ name }, { headers: { 'Idempotency-Key': 'grp-1' } }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'CONNECTION_LOST' });
    const groups = [];
    for await (const g of t.client.groups.list({})) if (g.name === name) groups.push(g);
    expect(groups).toHaveLength(1);
  });

  it('a conditional update (If-Match) is not sent again: CONNECTION_LOST, not a VERSION_CONFLICT with itself', async () => {
    const listed = (await t.client.tickets.list({ limit: 1 })).data[0];
    if (!listed) throw new Error('the seeded workspace has no ticket');
    const { data: before, response } = await t.client.tickets.get({ id: listed.id }).withResponse();
    const error = await rejection(
      throughProxy().tickets.update({ id: before.id, assignee: 'agent_lost', ifMatch: response.etag ?? undefined }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'CONNECTION_LOST' });
    expect(await t.client.tickets.get({ id: before.id })).toMatchObject({
      assignee: 'agent_lost',
      version: before.version + 1,
    });
  });

  it.each(['drop', 'hold'] as const)(
    'a send whose answer is lost (%s) is sent again with its key and the emulator replays it: one message',
    async (lose) => {
      const conversationId = await openConversation(lose === 'drop' ? '+15550107777' : '+15550107778');
      const content = `Shipped today (${lose})`;
      const { data, response } = await throughProxy(lose)
        .messages.send({ conversation_id: conversationId, content })
        .withResponse();
      expect(response.attempts).toBe(2);
      expect(response.idempotentReplayed).toBe(true);
      expect(await sentWith(conversationId, content)).toEqual([data.id]);
    },
  );
});
