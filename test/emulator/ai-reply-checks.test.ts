import type { Server } from 'node:http';
import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { claimedActions, unverifiedClaim } from '../../src/emulator/ai-reply/action-claims.js';
import { ACTION_VOCABULARY } from '../../src/emulator/ai-reply/action-vocabulary.js';
import { callReplyEndpoint, REPLY_ENDPOINT_POLICY } from '../../src/emulator/ai-reply/call-reply-endpoint.js';
import { leadingSentences, rankByOverlap } from '../../src/emulator/ai-reply/knowledge-match.js';
import { CustomReplyConfig, LoopbackTolerantCustomReplyConfig } from '../../src/api/schemas/provider-config.js';
import { checkAddress } from '../../src/internal/address-policy.js';
import { closeServer, listen } from '../e2e/reply-harness.js';
import { stubResolver } from './platform-harness.js';

describe('the action-claim check', () => {
  it.each([
    ['I have refunded your order.', 'refund'],
    ["We've issued a refund to your card", 'refund'],
    ['Your order has been refunded.', 'refund'],
    ['We have issued a full refund.', 'refund'],
    ['Your refund has been processed.', 'refund'],
    ['Good news: your refund was approved', 'refund'],
    ['I cancelled the subscription for you', 'cancel'],
    ['Your booking has been canceled', 'cancel'],
    ['We just shipped it!', 'ship'],
    ['I have placed a new order for you', 'order'],
    ["I've booked you in for Tuesday", 'book'],
    ['I have reset your password', 'update_account'],
    ['I applied a discount of 10%', 'discount'],
    ["I've passed this on to our team", 'handoff'],
    ['We have opened a ticket for you', 'handoff'],
  ])('finds the claim in "%s"', (reply, action) => {
    expect(claimedActions(reply)).toContain(action);
  });

  it.each([
    'Refunds reach your card within 5 working days.',
    'Refunds are processed within 5 working days.',
    'Your order has been processed and is on its way.',
    'You can cancel any time from your account page.',
    'We ship within 2 working days.',
    'Our size guide is at acme.example/sizes.',
    'Would you like me to book a table?',
    'Orders placed before noon leave the same day.',
  ])('finds no claim in the statement "%s"', (reply) => {
    expect(claimedActions(reply)).toEqual([]);
  });

  // One claim, then the same words made into something that claims nothing: the structure decides, not the words.
  it.each([
    ['I have successfully and fully refunded your payment.', 'I have not refunded your payment.'],
    ['Your order was cancelled.', 'Was your order cancelled?'],
    ['We have cancelled your booking.', 'If we have cancelled your booking, you will get an email.'],
    ['We have cancelled your booking.', 'We can cancel your booking.'],
    ['Your order has shipped.', 'Your order will have shipped by Friday, once it is packed.'],
    ['Your order has been shipped.', 'Orders are shipped from our warehouse in Leeds.'],
    ['We shipped your order on Monday.', 'We shipped 2,000 orders on Monday.'],
    ['I have placed the order you asked for.', 'The order you placed is on its way.'],
    ['Your table is booked for 8.', 'We are fully booked on Saturday.'],
    ['Your refund went through.', 'Refunds usually go through within a day.'],
    ['The amount was refunded to your card.', 'Refunded amounts show as ACME REFUND.'],
  ])('"%s" claims an action; "%s" does not', (claim, harmless) => {
    expect(claimedActions(claim)).not.toEqual([]);
    expect(claimedActions(harmless)).toEqual([]);
  });

  it('reads contractions and curly apostrophes as the words they stand for', () => {
    expect(claimedActions('Your order’s been cancelled')).toEqual(['cancel']);
    expect(claimedActions('We’ve issued you a full refund')).toEqual(['refund']);
    expect(claimedActions('We haven’t issued the refund yet')).toEqual([]);
    expect(claimedActions("We've given you 20% off")).toEqual(['discount']);
  });

  it('lets a claim through only when a verified tool result shows that action', () => {
    const reply = "I've passed this on to our team and refunded your order.";
    expect(unverifiedClaim(reply, [])).toBe('refund');
    const handedOff = [{ tool: 'tickets', data: {}, actions: ['handoff'] }];
    expect(unverifiedClaim(reply, handedOff)).toBe('refund');
    expect(unverifiedClaim(reply, [...handedOff, { tool: 'orders', data: {}, actions: ['refund'] }])).toBeNull();
    expect(ACTION_VOCABULARY.map((c) => c.action)).toEqual([...new Set(ACTION_VOCABULARY.map((c) => c.action))]);
  });
});

describe('the knowledge match', () => {
  const entries = [
    { title: 'Returns', content: 'Return unworn items within 30 days for a refund.' },
    { title: 'Opening hours', content: 'Open Monday to Saturday, 9 to 18.' },
    { title: 'Refund timing', content: 'A refund reaches your card within 5 days.' },
  ];
  const text = (e: (typeof entries)[number]) => `${e.title} ${e.content}`;

  it('ranks by shared words, ignoring stop words and case, and drops entries sharing none', () => {
    const ranked = rankByOverlap('When do you OPEN on Saturday?', entries, text);
    expect(ranked.map((r) => [r.item.title, r.score])).toEqual([['Opening hours', 2]]);
  });

  it('breaks ties by the given order, every time', () => {
    const ranked = rankByOverlap('refund', entries, text);
    expect(ranked.map((r) => r.item.title)).toEqual(['Returns', 'Refund timing']);
    expect(rankByOverlap('refund', entries, text)).toEqual(ranked);
  });

  it('keeps whole sentences under the bound', () => {
    expect(leadingSentences('One. Two two. Three three three.', 14)).toBe('One. Two two.');
    expect(leadingSentences('short', 100)).toBe('short');
    expect(leadingSentences('x'.repeat(50), 10)).toHaveLength(10);
  });
});

describe('the reply endpoint address check', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '93.184.216.34', '2606:2800:220:1::1'])('allows %s', (address) => {
    expect(checkAddress(address, REPLY_ENDPOINT_POLICY)).toEqual({ ok: true });
  });

  it.each([
    '10.0.0.5',
    '172.16.3.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
    '224.0.0.1',
    '64:ff9b::a9fe:a9fe',
  ])('refuses %s', (address) => {
    expect(checkAddress(address, REPLY_ENDPOINT_POLICY)).toEqual({
      ok: false,
      reason: expect.stringMatching(/not a public address/),
    });
  });
});

describe('the custom reply url in the contract', () => {
  it.each(['https://10.0.0.1/reply', 'https://[::ffff:169.254.169.254]/reply', 'https://169.254.169.254.nip.io/r'])(
    'refuses %s, as for a webhook URL',
    (url) => {
      const parsed = CustomReplyConfig.safeParse({ url });
      expect(parsed.error?.issues[0]?.message).toMatch(/public https:\/\/ URL/);
      expect(LoopbackTolerantCustomReplyConfig.safeParse({ url }).success).toBe(false);
    },
  );

  it('takes a public https URL, and in the emulator a loopback one', () => {
    expect(CustomReplyConfig.safeParse({ url: 'https://reply.example.com/r' }).success).toBe(true);
    expect(CustomReplyConfig.safeParse({ url: 'http://127.0.0.1:8080/r' }).success).toBe(false);
    expect(LoopbackTolerantCustomReplyConfig.safeParse({ url: 'http://127.0.0.1:8080/r' }).success).toBe(true);
  });

  it('refuses a URL carrying credentials, in the service rule and the emulator one', () => {
    for (const schema of [CustomReplyConfig, LoopbackTolerantCustomReplyConfig]) {
      expect(schema.safeParse({ url: 'https://user:pw@reply.example.com/r' }).error?.issues[0]?.message).toMatch(
        /credentials/,
      );
      expect(schema.safeParse({ url: 'https://user@reply.example.com/r' }).success).toBe(false);
    }
  });
});

describe('the reply call, at connect time', () => {
  const servers: Server[] = [];
  afterEach(() => Promise.all(servers.splice(0).map(closeServer)));

  /** A local reply endpoint answering { reply: 'hello' }, and how many requests reached it. */
  async function endpoint(): Promise<{ port: string; hits: () => number }> {
    let hits = 0;
    const { server, url } = await listen((_req, res) => {
      hits++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ reply: 'hello' }));
    });
    servers.push(server);
    return { port: new URL(url).port, hits: () => hits };
  }

  const call = (url: string, resolve?: LookupFunction) =>
    callReplyEndpoint({ url, secret: 'whsec_test', body: '{}', timeoutMs: 2_000, resolve });

  it('reaches a name that resolves to loopback', async () => {
    const { port, hits } = await endpoint();
    const { resolve, asked } = stubResolver({ 'reply.example.test': ['127.0.0.1'] });
    expect(await call(`http://reply.example.test:${port}/reply`, resolve)).toEqual({
      ok: true,
      reply: 'hello',
    });
    expect(asked).toEqual(['reply.example.test']);
    expect(hits()).toBe(1);
  });

  it('refuses a public-looking name that resolves to a private address, before connecting', async () => {
    const { port, hits } = await endpoint();
    const { resolve, asked } = stubResolver({ 'reply.example.test': ['10.0.0.1'] });
    const outcome = await call(`http://reply.example.test:${port}/reply`, resolve);
    expect(outcome).toMatchObject({ ok: false, status: null, reason: expect.stringContaining('EADDRNOTALLOWED') });
    expect(asked).toEqual(['reply.example.test']);
    expect(hits()).toBe(0);
  });

  it('refuses an IPv4-mapped private address written as IPv6', async () => {
    const outcome = await call('https://[::ffff:10.0.0.1]/reply');
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/EADDRNOTALLOWED.*ipv4Mapped/) });
  });
});
