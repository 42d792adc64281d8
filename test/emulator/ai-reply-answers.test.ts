import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { callReplyEndpoint, REPLY_ANSWER_MAX_BYTES } from '../../src/emulator/ai-reply/call-reply-endpoint.js';
import { closeServer, listen } from '../e2e/reply-harness.js';

// What the emulator makes of each answer of a custom reply endpoint (docs/custom-reply.md, The call):
// only a 2xx with { reply } as UTF-8 JSON is a reply; anything else is a failure, which hands off.
const servers: Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map(closeServer)));

/** A local endpoint answering with `answer`; `paths` lists the paths it was asked. */
async function endpoint(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const paths: string[] = [];
  const { server, url } = await listen((req, res) => {
    paths.push(req.url ?? '');
    answer(req, res);
  });
  servers.push(server);
  return { url, paths };
}

const call = (url: string) => callReplyEndpoint({ url, secret: 'whsec_test', body: '{}', timeoutMs: 2_000 });
const json =
  (body: string | Buffer, type = 'application/json') =>
  (_req: IncomingMessage, res: ServerResponse) =>
    res.writeHead(200, { 'content-type': type }).end(body);

describe('the answer of a custom reply endpoint', () => {
  it('takes { reply } as UTF-8 JSON, a leading byte order mark allowed, unknown fields ignored', async () => {
    const plain = await endpoint(json(JSON.stringify({ reply: 'Café at nine', confidence: 0.9 })));
    expect(await call(`${plain.url}/reply`)).toEqual({ ok: true, reply: 'Café at nine' });
    const bom = await endpoint(json(`\uFEFF${JSON.stringify({ reply: 'With a BOM' })}`));
    expect(await call(`${bom.url}/reply`)).toEqual({ ok: true, reply: 'With a BOM' });
  });

  it('refuses bytes that are not UTF-8, rather than sending the customer U+FFFD', async () => {
    const latin1 = Buffer.from('{"reply":"caf\xe9"}', 'latin1');
    const { url } = await endpoint(json(latin1, 'application/json; charset=iso-8859-1'));
    expect(await call(`${url}/reply`)).toEqual({ ok: false, status: 200, reason: 'the answer is not UTF-8' });
  });

  it('refuses an answer that is not JSON, or not { reply }', async () => {
    const html = await endpoint(json('<html>hi</html>', 'text/html'));
    expect(await call(`${html.url}/reply`)).toEqual({ ok: false, status: 200, reason: 'the answer is not JSON' });
    const list = await endpoint(json(JSON.stringify([{ reply: 'x' }])));
    expect(await call(`${list.url}/reply`)).toMatchObject({ ok: false, reason: expect.stringContaining('{ reply }') });
    const empty = await endpoint((_req, res) => res.writeHead(204).end());
    expect(await call(`${empty.url}/reply`)).toMatchObject({ ok: false, status: 204 });
  });

  it('does not follow a redirect, even to a good endpoint', async () => {
    const target = await endpoint(json(JSON.stringify({ reply: 'from the redirect' })));
    const { url } = await endpoint((_req, res) => res.writeHead(307, { location: `${target.url}/reply` }).end());
    expect(await call(`${url}/reply`)).toEqual({ ok: false, status: 307, reason: 'the endpoint answered 307' });
    expect(target.paths).toEqual([]);
  });

  it(`stops reading an answer past ${REPLY_ANSWER_MAX_BYTES} bytes`, async () => {
    const { url } = await endpoint(json(JSON.stringify({ reply: 'x'.repeat(REPLY_ANSWER_MAX_BYTES) })));
    expect(await call(`${url}/reply`)).toEqual({
      ok: false,
      status: 200,
      reason: `the answer is over ${REPLY_ANSWER_MAX_BYTES} bytes`,
    });
  });
});
