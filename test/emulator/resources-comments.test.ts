import { afterEach, describe, expect, it } from 'vitest';
import { COMMENT_MAX_CHARS, COMMENT_RULES_MAX } from '../../src/resources/index.js';
import { COMMENT_REPLIES_MAX } from '../../src/emulator/domain/comments/comments.js';
import type { Emulator } from '../../src/emulator/index.js';
import { as, cleanup, emulator } from './platform-harness.js';
import { SEED_IDS, subscribe } from './resources-harness.js';

afterEach(cleanup);

const comment = (e: Emulator, body: object) => as(e).post('/_emulator/comment').send(body);
const onPhoto = (content: string) => ({ integration_id: SEED_IDS.photo, from: { handle: '@tester' }, content });
const rules = (e: Emulator, list: object[]) => as(e).patch('/v1/comments/settings').send({ rules: list });

describe('keyword rules', () => {
  it.each([
    ['Price?', true],
    ['what is the PRICE of this', true],
    ['how   MUCH for two', true],
    ['priceless!', false],
    ['overpriced', false],
    ['pricey', false],
    ['how is it so much', false],
  ])('%j matches the seeded rule: %s', async (content, matches) => {
    const e = await emulator();
    const res = await comment(e, onPhoto(content)).expect(201);
    expect(res.body.rule_id).toBe(matches ? SEED_IDS.comments.rule : null);
    expect(res.body.comment.replies.map((r: { source: string }) => r.source)).toEqual(matches ? ['rule'] : []);
    expect(res.body.ai_reply_queued).toBe(false);
  });

  it('answers with the first enabled rule in order that applies to the account', async () => {
    const e = await emulator();
    const set = await rules(e, [
      { keywords: ['delivery'], reply: 'off', enabled: false },
      { keywords: ['delivery'], reply: 'page only', integration_id: SEED_IDS.page },
      { keywords: ['shipping', 'delivery'], reply: 'everywhere' },
      { keywords: ['delivery'], reply: 'too late' },
    ]).expect(200);
    expect(set.body.rules.map((r: { enabled: boolean }) => r.enabled)).toEqual([false, true, true, true]);
    const photo = await comment(e, onPhoto('Delivery to Spain?')).expect(201);
    expect(photo.body.rule_id).toBe(set.body.rules[2].id);
    expect(photo.body.comment.replies[0]).toMatchObject({ content: 'everywhere', source: 'rule' });
    const page = await comment(e, { ...onPhoto('delivery?'), integration_id: SEED_IDS.page }).expect(201);
    expect(page.body.comment.replies[0].content).toBe('page only');
  });

  it('replaces the whole list and keeps it across a get; a switch alone leaves the rules', async () => {
    const e = await emulator();
    await rules(e, [{ keywords: ['hours'], reply: 'We open at 9.' }]).expect(200);
    await as(e).patch('/v1/comments/settings').send({ ai_replies_enabled: true }).expect(200);
    const got = await as(e).get('/v1/comments/settings').expect(200);
    expect(got.body).toMatchObject({
      ai_replies_enabled: true,
      rules: [{ keywords: ['hours'], reply: 'We open at 9.' }],
    });
    // The seeded rule is gone.
    expect((await comment(e, onPhoto('price?'))).body.rule_id).toBeNull();
    await as(e).post('/_emulator/reset').send({}).expect(200);
    expect((await as(e).get('/v1/comments/settings')).body.rules[0].id).toBe(SEED_IDS.comments.rule);
  });

  it.each([
    [
      'too many rules',
      { rules: Array.from({ length: COMMENT_RULES_MAX + 1 }, () => ({ keywords: ['a'], reply: 'b' })) },
    ],
    ['a rule without keywords', { rules: [{ keywords: [], reply: 'b' }] }],
    ['a keyword over 100 characters', { rules: [{ keywords: ['k'.repeat(101)], reply: 'b' }] }],
    ['an empty keyword', { rules: [{ keywords: [''], reply: 'b' }] }],
    ['a reply over the comment limit', { rules: [{ keywords: ['a'], reply: 'r'.repeat(COMMENT_MAX_CHARS + 1) }] }],
    ['an unknown field', { rules: [], mode: 'all' }],
  ])('refuses %s with 400 VALIDATION_FAILED, changing nothing', async (_name, body) => {
    const e = await emulator();
    const res = await as(e).patch('/v1/comments/settings').send(body).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect((await as(e).get('/v1/comments/settings')).body.rules[0].id).toBe(SEED_IDS.comments.rule);
  });

  it('refuses a blank keyword (it could never match) and a blank reply, naming them; nothing changes', async () => {
    const e = await emulator();
    const keyword = await rules(e, [{ keywords: ['price', '   '], reply: 'See the shop.' }]).expect(400);
    expect(keyword.body.error.details).toMatchObject([{ path: 'rules.0.keywords.1' }]);
    const reply = await rules(e, [{ keywords: ['sale'], reply: '  ' }]).expect(400);
    expect(reply.body.error.details).toMatchObject([{ path: 'rules.0.reply' }]);
    expect((await as(e).get('/v1/comments/settings')).body.rules.map((r: { id: string }) => r.id)).toEqual([
      SEED_IDS.comments.rule,
    ]);
  });

  it('refuses a rule for an unknown account (404) or a phone account (422 INVALID_PLATFORM), naming it', async () => {
    const e = await emulator();
    const unknown = await rules(e, [{ keywords: ['a'], reply: 'b', integration_id: 'int_nope' }]).expect(404);
    expect(unknown.body.error.message).toContain('int_nope');
    const phone = await rules(e, [
      { keywords: ['a'], reply: 'b' },
      { keywords: ['a'], reply: 'b', integration_id: SEED_IDS.phoneMain },
    ]).expect(422);
    expect(phone.body.error).toMatchObject({ code: 'INVALID_PLATFORM', details: [{ path: 'rules.1.integration_id' }] });
  });

  it('needs automations:write to change, comments:read to read', async () => {
    const e = await emulator();
    const key = async (scopes: string[]) =>
      (await as(e).post('/v1/keys').send({ label: 'scoped', scopes, kind: 'live' })).body.key as string;
    const reader = await key(['comments:read', 'comments:write']);
    await as(e, reader).get('/v1/comments/settings').expect(200);
    const refused = await as(e, reader).patch('/v1/comments/settings').send({ ai_replies_enabled: true }).expect(403);
    expect(refused.body.error.details).toEqual([{ required_scope: 'automations:write' }]);
  });
});

describe('the /_emulator/comment control', () => {
  it('stores the comment on the account, with the default post, and announces nothing', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await comment(e, {
      integration_id: SEED_IDS.page,
      from: { handle: 'psid_1', name: 'Ann' },
      content: 'Nice!',
    }).expect(201);
    expect(res.body.comment).toMatchObject({
      integration_id: SEED_IDS.page,
      channel: 'social_page',
      post_id: 'post_latest',
      author: { handle: 'psid_1', name: 'Ann' },
      replies: [],
    });
    expect(res.body.comment.id).toMatch(/^cmt_/);
    expect((await as(e).get(`/v1/comments/${res.body.comment.id}`)).body).toEqual(res.body.comment);
    expect(await hooks.events()).toEqual([]);
  });

  it.each([
    ['a phone account', onPhoto('hi'), SEED_IDS.phoneMain, 422, 'INVALID_PLATFORM'],
    ['an unknown account', onPhoto('hi'), 'int_nope', 404, 'NOT_FOUND'],
    [
      'content over the comment limit',
      onPhoto('c'.repeat(COMMENT_MAX_CHARS + 1)),
      SEED_IDS.photo,
      400,
      'VALIDATION_FAILED',
    ],
    ['no author', { integration_id: SEED_IDS.photo, content: 'hi' }, SEED_IDS.photo, 400, 'VALIDATION_FAILED'],
  ])('refuses %s', async (_name, body, integrationId, status, code) => {
    const e = await emulator();
    const res = await comment(e, { ...body, integration_id: integrationId }).expect(status);
    expect(res.body.error.code).toBe(code);
    expect((await as(e).get('/v1/comments?limit=100')).body.data).toHaveLength(2);
  });
});

describe('replies through the API', () => {
  it(`keeps at most ${COMMENT_REPLIES_MAX} replies on one comment, then 422 INVALID_STATE`, async () => {
    const e = await emulator();
    const id = SEED_IDS.comments.open;
    for (let i = 0; i < COMMENT_REPLIES_MAX; i++)
      await as(e)
        .post(`/v1/comments/${id}/reply`)
        .send({ content: `reply ${i}` })
        .expect(201);
    const refused = await as(e).post(`/v1/comments/${id}/reply`).send({ content: 'one more' }).expect(422);
    expect(refused.body.error.code).toBe('INVALID_STATE');
    const stored = (await as(e).get(`/v1/comments/${id}`)).body;
    expect(stored.replies).toHaveLength(COMMENT_REPLIES_MAX);
    expect(stored.replies[0].content).toBe('reply 0');
  });

  it('refuses an empty or over-long reply, and a test key stores nothing', async () => {
    const e = await emulator();
    const id = SEED_IDS.comments.open;
    await as(e).post(`/v1/comments/${id}/reply`).send({ content: '' }).expect(400);
    // Blanks alone would post an empty public reply.
    const blank = await as(e).post(`/v1/comments/${id}/reply`).send({ content: ' \n\t ' }).expect(400);
    expect(blank.body.error.details).toMatchObject([{ path: 'content' }]);
    await as(e)
      .post(`/v1/comments/${id}/reply`)
      .send({ content: 'r'.repeat(COMMENT_MAX_CHARS + 1) })
      .expect(400);
    const synthetic = await as(e, e.testKey).post(`/v1/comments/${id}/reply`).send({ content: 'hi' }).expect(201);
    expect(synthetic.body).toMatchObject({ test: true, comment_id: id });
    expect((await as(e).get(`/v1/comments/${id}`)).body.replies).toEqual([]);
    // A test key reads nothing.
    await as(e, e.testKey).get(`/v1/comments/${id}`).expect(403);
  });

  it('lists newest first and filters by account', async () => {
    const e = await emulator();
    const all = (await as(e).get('/v1/comments')).body.data.map((c: { id: string }) => c.id);
    expect(all).toEqual([SEED_IDS.comments.open, SEED_IDS.comments.answered]);
    const page = (await as(e).get(`/v1/comments?integration_id=${SEED_IDS.page}`)).body.data;
    expect(page.map((c: { id: string }) => c.id)).toEqual([SEED_IDS.comments.open]);
    await as(e).get('/v1/comments?limit=101').expect(400);
  });
});
