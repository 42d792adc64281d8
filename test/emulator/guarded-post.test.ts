import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ANSWER_BYTES, guardedPost } from '../../src/net/guarded-post.js';
import { as, cleanup, emulator } from './platform-harness.js';

const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await cleanup();
});

/** A local endpoint whose answers `answer` writes; resolves `hungUp` when the caller closes an answer early. */
async function endpoint(answer: (res: ServerResponse) => void) {
  let hungUp!: () => void;
  const closedEarly = new Promise<void>((resolve) => (hungUp = resolve));
  const server = createServer((req, res) => {
    req.resume();
    res.on('close', () => {
      if (!res.writableFinished) hungUp();
    });
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, closedEarly };
}

/** Writes 1 KiB chunks for as long as the connection stays open. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const chunk = 'x'.repeat(1024);
  const write = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', write);
  };
  write();
}

const post = (url: string, maxAnswerBytes?: number) =>
  // A long timeout: an answer read to its end (never, here) would fail the test by the test's own timeout.
  guardedPost({ url, headers: {}, body: '{}', policy: 'loopback', timeoutMs: 60_000, maxAnswerBytes });

describe('guardedPost reads a bounded answer', () => {
  it('returns a small answer whole', async () => {
    const { url } = await endpoint((res) => res.writeHead(202).end('accepted'));
    const answer = await post(url);
    expect(answer.status).toBe(202);
    expect(answer.body?.toString('utf8')).toBe('accepted');
  });

  it('stops reading an endless answer past the bound and hangs up', async () => {
    const { url, closedEarly } = await endpoint(endless);
    expect(await post(url)).toEqual({ status: 200, body: null });
    await closedEarly;
  });

  it('does not read an answer whose Content-Length is over the bound', async () => {
    const size = DEFAULT_MAX_ANSWER_BYTES + 1;
    const { url } = await endpoint((res) => res.writeHead(200, { 'content-length': size }).end('y'.repeat(size)));
    expect(await post(url)).toEqual({ status: 200, body: null });
    const within = await post(url, size);
    expect(within.body).toHaveLength(size);
  });

  it('lets the emulator record a delivery to a receiver that answers 2xx with an endless body, and hang up', async () => {
    const { url, closedEarly } = await endpoint(endless);
    const e = await emulator();
    const created = await as(e)
      .post('/v1/webhooks')
      .send({ url, events: ['message.received'] });
    expect(created.status).toBe(201);
    const inbound = await as(e)
      .post('/_emulator/inbound')
      .send({ channel: 'phone', from: { handle: '+14155550199' }, content: 'Hi' });
    expect(inbound.status).toBe(201);
    await e.dispatcher.idle();
    await closedEarly;
    const attempts = await as(e).get(`/v1/webhooks/${created.body.id}/deliveries?limit=5`);
    expect(attempts.body.data[0]).toMatchObject({ status_code: 200, error: null });
  });
});
