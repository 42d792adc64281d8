import { afterEach, describe, expect, it } from 'vitest';
import { createReplyEndpoint, serveReply, type ServedReply } from '../../src/reply/index.js';
import { signedReplyRequest } from '../../src/testing/index.js';
import { silent } from '../receiver/harness.js';

const SECRET = 'rsec_5bC8qY2wVt0LmN4pR7sK1dF6';
const open: ServedReply[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const endpoint = () =>
  createReplyEndpoint({ secret: SECRET, logger: silent, reply: () => ({ reply: 'From the FAQ' }) });

describe('serveReply(endpoint, options)', () => {
  it('answers signed reply requests at /reply and the app’s routes for the rest, on one port', async () => {
    const served = await serveReply(endpoint(), {
      port: 0,
      routes: (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`app: ${req.url}`),
    });
    open.push(served);
    expect(served.replyUrl).toBe(`${served.url}/reply`);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const signed = signedReplyRequest({ secret: SECRET });
    const answer = await fetch(served.replyUrl, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ reply: 'From the FAQ' });
    const forged = signedReplyRequest({ secret: 'rsec_other' });
    expect((await fetch(served.replyUrl, { method: 'POST', headers: forged.headers, body: forged.body })).status).toBe(
      401,
    );
    expect(await (await fetch(`${served.url}/health?x=1`)).text()).toBe('app: /health?x=1');
  });

  it('answers 404 in the kit’s envelope without routes, and serves another replyPath', async () => {
    const served = await serveReply(endpoint(), { port: 0, replyPath: '/hooks/reply' });
    open.push(served);
    expect(served.replyUrl).toBe(`${served.url}/hooks/reply`);
    const res = await fetch(`${served.url}/reply`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('close() stops listening, ends idle keep-alive connections, runs onClose once, and answers the same promise', async () => {
    let closed = 0;
    const served = await serveReply(endpoint(), { port: 0, onClose: () => void (closed += 1) });
    await fetch(`${served.url}/`, { headers: { connection: 'keep-alive' } });
    const first = served.close();
    expect(served.close()).toBe(first);
    await first;
    expect(closed).toBe(1);
    await expect(fetch(`${served.url}/`)).rejects.toThrow();
  });

  it('refuses a port in use, with nothing left listening', async () => {
    const first = await serveReply(endpoint(), { port: 0 });
    open.push(first);
    const port = Number(new URL(first.url).port);
    await expect(serveReply(endpoint(), { port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
