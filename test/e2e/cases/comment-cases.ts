import { expect } from 'vitest';
import { NotFoundError } from '../../../src/client/index.js';
import { SEED_IDS } from '../../../src/emulator/seed.js';
import { rejection } from '../harness.js';
import type { RouteCases } from './route-case.js';

type Commented = { comment: { id: string; replies: { source: string; content: string }[] }; rule_id: string | null };

/** Tracked social comments and their keyword rules: comments arrive through `/_emulator/comment`. */
export const commentCases = {
  'comments.list': async ({ client, control }) => {
    const { comment } = (await control('comment', {
      integration_id: SEED_IDS.photo,
      post_id: 'post_e2e_list',
      from: { handle: '@e2e.lister' },
      content: 'Lovely colours!',
    })) as Commented;
    const photo = await client.comments.list({ integration_id: SEED_IDS.photo });
    // Newest first, narrowed to the account.
    expect(photo.data[0]).toMatchObject({ id: comment.id, post_id: 'post_e2e_list', channel: 'photo_social' });
    expect(photo.data.every((c) => c.integration_id === SEED_IDS.photo)).toBe(true);
    const ids: string[] = [];
    for await (const c of client.comments.list({ limit: 1 })) ids.push(c.id);
    expect(ids).toEqual(expect.arrayContaining([comment.id, SEED_IDS.comments.answered, SEED_IDS.comments.open]));
  },

  'comments.get': async ({ client }) => {
    const answered = await client.comments.get({ id: SEED_IDS.comments.answered });
    expect(answered).toMatchObject({
      integration_id: SEED_IDS.photo,
      author: { handle: '@lena.styles' },
      replies: [{ comment_id: SEED_IDS.comments.answered, source: 'rule' }],
    });
    expect(await rejection(client.comments.get({ id: 'cmt_does_not_exist' }))).toBeInstanceOf(NotFoundError);
  },

  'comments.reply': async ({ client, testClient }) => {
    const id = SEED_IDS.comments.open;
    const before = (await client.comments.get({ id })).replies.length;
    const reply = await client.comments.reply({ id, content: 'Yes, from 11:00 to 16:00 on Sundays.' });
    expect(reply).toMatchObject({ comment_id: id, source: 'api', content: 'Yes, from 11:00 to 16:00 on Sundays.' });
    expect(reply.id).toMatch(/^crp_/);
    expect((await client.comments.get({ id })).replies.at(-1)).toEqual(reply);
    // The test key's synthetic 201: nothing is stored.
    expect(await testClient.comments.reply({ id, content: 'synthetic' })).toMatchObject({ test: true, source: 'api' });
    expect((await client.comments.get({ id })).replies).toHaveLength(before + 1);
    expect(await rejection(client.comments.reply({ id: 'cmt_nope', content: 'x' }))).toBeInstanceOf(NotFoundError);
  },

  'comments.getSettings': async ({ client }) => {
    const settings = await client.comments.getSettings();
    expect(settings.ai_replies_enabled).toBe(false);
    expect(settings.rules).toContainEqual(
      expect.objectContaining({ keywords: ['price', 'how much'], integration_id: null, enabled: true }),
    );
  },

  'comments.updateSettings': async ({ client, control }) => {
    const before = await client.comments.getSettings();
    const updated = await client.comments.updateSettings({
      ai_replies_enabled: true,
      rules: [{ keywords: ['Sizes'], reply: 'Our size guide: convokit.shop/sizes', integration_id: SEED_IDS.page }],
    });
    expect(updated).toMatchObject({
      ai_replies_enabled: true,
      rules: [{ keywords: ['Sizes'], integration_id: SEED_IDS.page, enabled: true }],
    });
    expect(updated.rules[0]!.id).toMatch(/^crl_/);
    // The new rule answers on its page only, as a whole word.
    const onPage = (await control('comment', {
      integration_id: SEED_IDS.page,
      from: { handle: 'psid_e2e' },
      content: 'Do you have SIZES for kids?',
    })) as Commented;
    expect(onPage.rule_id).toBe(updated.rules[0]!.id);
    expect(onPage.comment.replies).toEqual([expect.objectContaining({ source: 'rule' })]);
    expect(
      await rejection(
        client.comments.updateSettings({
          rules: [{ keywords: ['x'], reply: 'y', integration_id: SEED_IDS.phoneMain }],
        }),
      ),
    ).toMatchObject({ status: 422, code: 'INVALID_PLATFORM' });
    // A refused update changes nothing; then the seeded rules come back.
    expect((await client.comments.getSettings()).rules).toEqual(updated.rules);
    await client.comments.updateSettings({
      ai_replies_enabled: before.ai_replies_enabled,
      rules: before.rules.map(({ keywords, reply, integration_id, enabled }) => ({
        keywords,
        reply,
        integration_id,
        enabled,
      })),
    });
  },
} satisfies RouteCases;
