import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { closeServer, replyEndpoint } from '../e2e/reply-harness.js';
import { as, cleanup, emulator, stubResolver } from './platform-harness.js';

// The emulator's `resolveHost` governs the custom reply call as it does webhook deliveries: the stub
// answers every name the call resolves, so nothing leaves the machine (docs/custom-reply.md).
afterEach(cleanup);

const SECRET = 'rsec_resolve_host_5e1d';
const ACCOUNT = SEED_IDS.phoneSupport;
type E = Awaited<ReturnType<typeof emulator>>;

/** AI replies on for the support number, from the custom reply endpoint at `url`. */
async function replyFrom(e: E, url: string): Promise<void> {
  const api = as(e);
  expect((await api.patch(`/v1/channels/${ACCOUNT}`).send({ ai_enabled: true })).status).toBe(200);
  expect((await api.patch(`/v1/channels/groups/${SEED_IDS.group}`).send({ ai_enabled: true })).status).toBe(200);
  const put = await api
    .put(`/v1/channels/${ACCOUNT}/providers/custom_reply`)
    .send({ enabled: true, config: { url, timeout_ms: 2000 }, secret: SECRET });
  expect(put.status).toBe(200);
}

/** A customer writes in; once every AI reply call has finished: the AI's messages and the handoff tickets. */
async function customerWrites(e: E, from: string) {
  const inbound = await as(e)
    .post('/_emulator/inbound')
    .send({ channel: 'phone', integration_id: ACCOUNT, from: { handle: from }, content: 'When do you open?' });
  expect(inbound.status).toBe(201);
  await e.aiReplies.idle();
  const id = inbound.body.conversation.id as string;
  const messages = await as(e).get(`/v1/conversations/${id}/messages?limit=100`);
  const tickets = await as(e).get(`/v1/tickets?conversation_id=${id}`);
  return {
    ai: (messages.body.data as { source: string; content: string }[]).filter((m) => m.source === 'ai'),
    handoffs: (tickets.body.data as { kind: string }[]).filter((t) => t.kind === 'handoff'),
  };
}

describe("the emulator's resolveHost under the custom reply call", () => {
  it('reaches the reply endpoint at the address the stub gives its name', async () => {
    let calls = 0;
    const { server, url } = await replyEndpoint(SECRET, () => (calls++, 'We open at 9.'));
    const { resolve, asked } = stubResolver({ localhost: ['127.0.0.1'] });
    try {
      const e = await emulator({ resolveHost: resolve });
      await replyFrom(e, `${url.replace('127.0.0.1', 'localhost')}/reply`);
      const { ai, handoffs } = await customerWrites(e, '+14155550611');
      expect(asked).toContain('localhost');
      expect(calls).toBe(1);
      expect(ai.map((m) => m.content)).toEqual(['We open at 9.']);
      expect(handoffs).toEqual([]);
    } finally {
      await closeServer(server);
    }
  });

  it('routes a public-looking name to loopback when the stub says so, asking no real DNS', async () => {
    // A TCP listener: the https call's connection arriving here is what shows where the name led.
    let connections = 0;
    const tcp = createTcpServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done));
    const { port } = tcp.address() as AddressInfo;
    const { resolve, asked } = stubResolver({ 'reply.example.com': ['127.0.0.1'] });
    try {
      const e = await emulator({ resolveHost: resolve });
      await replyFrom(e, `https://reply.example.com:${port}/reply`);
      const { ai, handoffs } = await customerWrites(e, '+14155550612');
      expect(asked).toEqual(['reply.example.com']);
      expect(connections).toBe(1);
      // No TLS there, so no reply: the conversation goes to people.
      expect(ai).toEqual([]);
      expect(handoffs).toHaveLength(1);
    } finally {
      await new Promise((done) => tcp.close(done));
    }
  });

  it.each([
    ['localhost', '10.0.0.1'],
    ['reply.example.com', '169.254.169.254'],
  ])('refuses %s when it resolves to %s, before connecting, and hands off', async (host, address) => {
    let calls = 0;
    const { server, url } = await replyEndpoint(SECRET, () => (calls++, 'We open at 9.'));
    const { resolve, asked } = stubResolver({ [host]: [address] });
    try {
      const e = await emulator({ resolveHost: resolve });
      const port = new URL(url).port;
      await replyFrom(e, host === 'localhost' ? `http://localhost:${port}/reply` : `https://${host}/reply`);
      const { ai, handoffs } = await customerWrites(e, '+14155550613');
      expect(asked).toEqual([host]);
      expect(calls).toBe(0);
      expect(ai).toEqual([]);
      expect(handoffs).toHaveLength(1);
    } finally {
      await closeServer(server);
    }
  });
});
