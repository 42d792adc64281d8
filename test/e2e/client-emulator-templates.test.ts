import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, SendFailedError, ValidationFailedError } from '../../src/client/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { rejection, startE2e, type E2e } from './harness.js';

// Template rules through the typed client over real HTTP: every error code a template route can produce.
let t: E2e;
beforeAll(async () => {
  t = await startE2e();
});
afterAll(async () => {
  await t.close();
});

const ids = SEED_IDS.templates;
const orderVars = { '1': 'A-7', '2': 'Friday' };
const messagesThisMonth = async () => (await t.client.usage.get()).usage.messages;

describe('template sends that are stopped before sending', () => {
  it('refuses a template that is not approved with TEMPLATE_NOT_APPROVED, and does not charge it', async () => {
    const before = await messagesThisMonth();
    for (const id of [ids.pending, ids.rejected, ids.draft]) {
      const error = await rejection(t.client.templates.send({ id, to: '14155557100', variables: { '1': 'x' } }));
      expect(error).toMatchObject({ status: 422, code: 'TEMPLATE_NOT_APPROVED' });
    }
    expect(await messagesThisMonth()).toBe(before);
  });

  it('refuses an opted-out recipient with CONTACT_OPTED_OUT (a known opted-out contact, and a number ending 0003), not charged', async () => {
    const before = await messagesThisMonth();
    const known = await rejection(
      t.client.templates.send({ id: ids.approved, to: '14155550003', variables: orderVars }),
    );
    expect(known).toMatchObject({ status: 422, code: 'CONTACT_OPTED_OUT' });
    const fresh = await rejection(
      t.client.templates.send({ id: ids.approved, to: '447700900003', variables: orderVars }),
    );
    expect(fresh).toMatchObject({ status: 422, code: 'CONTACT_OPTED_OUT' });
    expect(await messagesThisMonth()).toBe(before);
    // Nothing was created for the fresh number either.
    const contacts = await t.client.contacts.list({ limit: 100 });
    expect(contacts.data.some((c) => c.phone === '+447700900003')).toBe(false);
  });

  it('answers a provider rejection (number ending 0001) with SendFailedError 131026, not charged', async () => {
    const before = await messagesThisMonth();
    const error = await rejection(
      t.client.templates.send({ id: ids.approved, to: '14155550001', variables: orderVars }),
    );
    expect(error).toBeInstanceOf(SendFailedError);
    expect(error).toMatchObject({ status: 422, code: 'SEND_FAILED', providerErrorCode: '131026' });
    expect(await messagesThisMonth()).toBe(before);
  });

  it('needs every variable the body uses: VALIDATION_FAILED naming variables.<n>', async () => {
    const error = await rejection(
      t.client.templates.send({ id: ids.approved, to: '14155557101', variables: { '1': 'A-7' } }),
    );
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).details).toEqual([expect.objectContaining({ path: 'variables.2' })]);
  });
});

describe('sender resolution', () => {
  it('answers AMBIGUOUS_INTEGRATION for an unpinned template while two numbers are active, and sends once one is named', async () => {
    const error = await rejection(
      t.client.templates.send({ id: ids.approvedUnpinned, to: '14155557102', variables: { '1': 'Monday' } }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'AMBIGUOUS_INTEGRATION' });
    const sent = await t.client.templates.send({
      id: ids.approvedUnpinned,
      to: '14155557102',
      integration_id: SEED_IDS.phoneSupport,
      variables: { '1': 'Monday' },
    });
    expect(sent.integration_id).toBe(SEED_IDS.phoneSupport);
  });

  it('sends from the pinned number, and an explicit integration_id wins over the pin', async () => {
    const pinned = await t.client.templates.send({ id: ids.approved, to: '14155557103', variables: orderVars });
    expect(pinned.integration_id).toBe(SEED_IDS.phoneMain);
    const explicit = await t.client.templates.send({
      id: ids.approved,
      to: '14155557103',
      integration_id: SEED_IDS.phoneSupport,
      variables: orderVars,
    });
    expect(explicit.integration_id).toBe(SEED_IDS.phoneSupport);
    // A social account cannot send templates.
    expect(
      await rejection(
        t.client.templates.send({
          id: ids.approved,
          to: '14155557103',
          integration_id: SEED_IDS.photo,
          variables: orderVars,
        }),
      ),
    ).toMatchObject({ status: 409, code: 'ACCOUNT_MISMATCH' });
  });

  it('works outside the 24-hour window, where free text is OUTSIDE_SERVICE_WINDOW', async () => {
    const closed = await t.client.conversations.get({ id: SEED_IDS.windowClosed.conversation });
    expect(
      await rejection(t.client.conversations.sendMessage({ id: closed.id, content: 'Are you still there?' })),
    ).toMatchObject({ code: 'OUTSIDE_SERVICE_WINDOW' });
    const sent = await t.client.templates.send({
      id: ids.approved,
      to: closed.customer.handle.slice(1),
      variables: orderVars,
    });
    expect(sent.conversation_id).toBe(closed.id);
  });
});

describe('template lifecycle', () => {
  it('creates pending_review, takes the provider verdict, and refuses a second template of the same name', async () => {
    const created = await t.client.templates.create({
      name: 'life_cycle',
      category: 'MARKETING',
      body: 'Big sale {{1}}',
    });
    expect(created.status).toBe('pending_review');
    expect(
      await rejection(t.client.templates.send({ id: created.id, to: '14155557104', variables: { '1': 'x' } })),
    ).toMatchObject({ code: 'TEMPLATE_NOT_APPROVED' });
    await t.control(`templates/${created.id}/review`, { status: 'approved', quality: 'high' });
    const sent = await t.client.templates.send({
      id: created.id,
      to: '14155557104',
      integration_id: SEED_IDS.phoneMain,
      variables: { '1': 'today' },
    });
    expect(sent.content).toBe('Big sale today');
    const duplicate = await rejection(
      t.client.templates.create({ name: 'life_cycle', category: 'MARKETING', body: 'Again' }),
    );
    expect(duplicate).toBeInstanceOf(ValidationFailedError);
    expect((duplicate as ValidationFailedError).details).toEqual([expect.objectContaining({ path: 'name' })]);
  });

  it('refuses to pin a template to a number that does not exist (NOT_FOUND) or is not a phone (ACCOUNT_MISMATCH)', async () => {
    expect(
      await rejection(
        t.client.templates.create({
          name: 'pinned_nowhere',
          category: 'UTILITY',
          body: 'x',
          pinned_integration_id: 'int_nope',
        }),
      ),
    ).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(
      await rejection(
        t.client.templates.create({
          name: 'pinned_social',
          category: 'UTILITY',
          body: 'x',
          pinned_integration_id: SEED_IDS.page,
        }),
      ),
    ).toMatchObject({ status: 409, code: 'ACCOUNT_MISMATCH' });
  });

  it('refuses to submit an approved template with INVALID_STATE', async () => {
    expect(await rejection(t.client.templates.submit({ id: ids.approved }))).toMatchObject({
      status: 422,
      code: 'INVALID_STATE',
    });
  });

  it('pauses a template after its 5th throttled send (numbers ending 0002) within an hour; the 6th is TEMPLATE_NOT_APPROVED', async () => {
    const vars = { '1': 'Sam' };
    // Four throttled sends, then an hour passes: the window forgets them.
    for (let i = 0; i < 4; i++)
      await t.client.templates.send({ id: ids.approvedMarketing, to: `1415555${i}0002`, variables: vars });
    await t.control('clock', { advance_seconds: 3601 });
    for (let i = 0; i < 4; i++)
      await t.client.templates.send({ id: ids.approvedMarketing, to: `1415556${i}0002`, variables: vars });
    expect((await t.client.templates.get({ id: ids.approvedMarketing })).status).toBe('approved');
    await t.client.templates.send({ id: ids.approvedMarketing, to: '14155570002', variables: vars });
    expect((await t.client.templates.get({ id: ids.approvedMarketing })).status).toBe('paused');
    expect(
      await rejection(t.client.templates.send({ id: ids.approvedMarketing, to: '14155557105', variables: vars })),
    ).toMatchObject({ code: 'TEMPLATE_NOT_APPROVED' });
  });

  it('answers a send of a deleted template with NOT_FOUND', async () => {
    const created = await t.client.templates.create({ name: 'short_lived', category: 'UTILITY', body: 'Your code' });
    await t.client.templates.delete({ id: created.id });
    expect(await rejection(t.client.templates.send({ id: created.id, to: '14155557106' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
