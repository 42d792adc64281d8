import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signedReplyRequest } from 'convo-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFaq } from '../src/faq.js';
import { startReplyApp, type ReplyApp } from '../src/reply-app.js';

const FAQ_PATH = fileURLToPath(new URL('../faq.json', import.meta.url));
const SECRET = 'rsec_test_2f9c1e7a5b3d';

let app: ReplyApp;
beforeAll(async () => {
  app = await startReplyApp({ replySecret: SECRET, port: 0, faqPath: FAQ_PATH, timeoutMs: 2000 });
});
afterAll(() => app.close());

const customer = (content: string) => [{ role: 'customer' as const, content, created_at: new Date().toISOString() }];

async function ask(request: Parameters<typeof signedReplyRequest>[0]['request'], secret = SECRET) {
  const signed = signedReplyRequest({ secret, request });
  const res = await fetch(app.replyUrl, { method: 'POST', headers: signed.headers, body: signed.body });
  return { status: res.status, body: (await res.json()) as { reply?: string; error?: { code: string } } };
}

describe('the reply endpoint, over HTTP with signed requests', () => {
  it('answers a question from the FAQ entry that shares the most words', async () => {
    const hours = await ask({
      conversation_history: customer('Hi, are you open on Saturday afternoon?'),
      verified_knowledge: [],
    });
    expect(hours).toEqual({ status: 200, body: { reply: app.faq.entries.find((e) => e.id === 'hours')!.answer } });
    const returns = await ask({ conversation_history: customer('How can I return my jacket and get a refund?') });
    expect(returns.body.reply).toContain('within 30 days');
  });

  it('answers the last message of the history, and comments as well as direct messages', async () => {
    const history = [
      ...customer('Which payment methods do you accept?'),
      { role: 'business' as const, content: 'Cards, PayPal and bank transfer.', created_at: new Date().toISOString() },
      ...customer('And how long does shipping take abroad?'),
    ];
    expect((await ask({ conversation_history: history })).body.reply).toContain('7 to 10 abroad');
    const comment = await ask({ task: 'comment_reply', conversation_history: customer('Do you have a size guide?') });
    expect(comment.body.reply).toContain('acme.example/sizes');
  });

  it('falls back to the knowledge the service sent, in whole sentences', async () => {
    const res = await ask({
      conversation_history: customer('Is there parking near the Berlin store?'),
      verified_knowledge: [
        {
          entry_id: 'kn_1',
          type: 'general',
          title: 'Berlin store',
          content: 'The Berlin store has free parking behind the building. It opened in 2019.',
        },
      ],
    });
    expect(res.body.reply).toBe('The Berlin store has free parking behind the building. It opened in 2019.');
  });

  it('answers from the first knowledge entry when the service sends no history (send_conversation_history off)', async () => {
    const knowledge = (title: string, content: string) => ({ entry_id: `kn_${title}`, type: 'faq', title, content });
    const res = await ask({
      conversation_history: [],
      verified_knowledge: [
        knowledge('hours', 'We open at 9. We close at 6.'),
        knowledge('returns', 'Returns: 30 days.'),
      ],
    });
    expect(res).toEqual({ status: 200, body: { reply: 'We open at 9. We close at 6.' } });
    const nothing = await ask({ conversation_history: [], verified_knowledge: [] });
    expect(nothing.status).toBe(422);
  });

  it('answers 422 NO_REPLY to a question it has no answer for, so the service hands off', async () => {
    const res = await ask({
      conversation_history: customer('Can I speak to the manager about my complaint?'),
      verified_knowledge: [],
    });
    expect(res).toEqual({ status: 422, body: { error: { code: 'NO_REPLY', message: expect.any(String) } } });
  });

  it('refuses a request signed with another secret (401) and a stale one', async () => {
    expect((await ask({}, 'rsec_someone_else')).body.error?.code).toBe('SIGNATURE_MISMATCH');
    const stale = signedReplyRequest({ secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const res = await fetch(app.replyUrl, { method: 'POST', headers: stale.headers, body: stale.body });
    expect(res.status).toBe(401);
  });

  it('answers 404 elsewhere and says it is up on /health and on / (the URL npm run dev prints)', async () => {
    expect((await fetch(`${app.url}/webhooks`, { method: 'POST' })).status).toBe(404);
    for (const path of ['/health', '/'])
      expect(await (await fetch(`${app.url}${path}`)).json()).toMatchObject({
        ok: true,
        reply: 'POST /reply',
        faq_entries: app.faq.entries.length,
      });
  });
});

describe('the FAQ file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custom-reply-faq-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const entry = { id: 'a', question: 'q?', answer: 'a.' };

  it('ships valid', () => {
    expect(loadFaq(FAQ_PATH).entries.length).toBeGreaterThan(0);
  });

  it.each([
    ['not JSON', '{"entries": [', /JSON/],
    [
      'an entry without an answer',
      { business_name: 'X', entries: [entry, { id: 'b', question: 'q' }] },
      /entry 2 \(answer\)/,
    ],
    [
      'an answer over 4096 characters',
      { business_name: 'X', entries: [{ ...entry, answer: 'a'.repeat(4097) }] },
      /entry 1 \(answer\)/,
    ],
    ['a duplicate id', { business_name: 'X', entries: [entry, entry] }, /two entries have the id "a"/],
    ['an unknown field', { business_name: 'X', entries: [entry], colour: 'red' }, /colour/],
    ['no entries', { business_name: 'X', entries: [] }, /entries/],
  ])('refuses %s, naming where', (_name, content, message) => {
    expect(() => loadFaq(write('faq.json', content))).toThrow(message);
  });

  it('stops npm start on a bad file with its message alone (no stack trace), exit 1', () => {
    const path = write('start.json', { business_name: 'X', entries: [{ id: 'B A D', question: 'q', answer: 'a' }] });
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, REPLY_SECRET: SECRET, FAQ_PATH: path, PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${path}: entry 1 (id)`);
    expect(result.stderr).not.toMatch(/\n\s+at |FaqError/);
  });

  it('stops the app from starting when the file is bad', async () => {
    const path = write('bad.json', { business_name: 'X', entries: [{ id: 'B A D', question: 'q', answer: 'a' }] });
    await expect(startReplyApp({ replySecret: SECRET, port: 0, faqPath: path, timeoutMs: 1000 })).rejects.toThrow(
      /entry 1 \(id\)/,
    );
  });
});
