import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { PANELS } from '../../src/console/emulator-console/console-panels.js';
import { DETAIL_PANELS } from '../../src/console/emulator-console/detail-panels.js';
import { EMULATOR_CONTROLS } from '../../src/emulator/controls/index.js';
import { createEmulator, SEED_IDS, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { HAS_CHROMIUM, launchBrowser, screenshot } from '../support/browser.js';

let emulator: Emulator;
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  emulator = await createEmulator({});
  server = await emulator.listen(0);
});
afterAll(async () => {
  await server.close();
  await emulator.close();
});

const admin = () => `Bearer ${emulator.adminKey}`;

describe('the emulator controls index and resend', () => {
  it('GET /_emulator lists every control with its body schema, and the emulator time', async () => {
    const res = await request(emulator.app).get('/_emulator').expect(200);
    const inbound = res.body.controls.find((c: { path: string }) => c.path === '/_emulator/inbound');
    expect(inbound.body.required).toEqual(expect.arrayContaining(['channel', 'from', 'content']));
    expect(res.body.controls.map((c: { path: string }) => c.path)).toEqual(
      expect.arrayContaining([
        '/_emulator/clock',
        '/_emulator/reset',
        '/_emulator/webhooks/deliveries/:delivery_id/resend',
      ]),
    );
    expect(Date.parse(res.body.now)).not.toBeNaN();
  });

  it('resends a finished delivery with the same id and bytes, and refuses one it no longer holds', async () => {
    const received: { id: string; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req
        .on('data', (chunk) => (body += chunk))
        .on('end', () => {
          received.push({ id: String(req.headers['x-service-delivery']), body });
          res.writeHead(200).end('{}');
        });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as { port: number };
      const hook = await request(emulator.app)
        .post('/v1/webhooks')
        .set('authorization', admin())
        .send({ url: `http://127.0.0.1:${port}/hook`, events: ['conversation.created'] })
        .expect(201);
      await request(emulator.app)
        .post('/_emulator/inbound')
        .set('authorization', admin())
        .send({ channel: 'phone', from: { handle: '+14155550777' }, content: 'hello' })
        .expect(201);
      await emulator.dispatcher.idle();
      expect(received).toHaveLength(1);
      const [first] = received;

      await request(emulator.app)
        .post(`/_emulator/webhooks/deliveries/${first!.id}/resend`)
        .set('authorization', admin())
        .expect(200, { resent: true, delivery_id: first!.id });
      await emulator.dispatcher.idle();
      expect(received).toHaveLength(2);
      expect(received[1]).toEqual(first);
      const log = await request(emulator.app)
        .get(`/v1/webhooks/${hook.body.id}/deliveries`)
        .set('authorization', admin())
        .expect(200);
      expect(log.body.data.filter((a: { delivery_id: string }) => a.delivery_id === first!.id)).toHaveLength(2);

      const gone = await request(emulator.app)
        .post('/_emulator/webhooks/deliveries/dlv_never_sent/resend')
        .set('authorization', admin())
        .expect(404);
      expect(gone.body.error.code).toBe('NOT_FOUND');
      await request(emulator.app).post(`/_emulator/webhooks/deliveries/${first!.id}/resend`).expect(401);
      await request(emulator.app)
        .post('/_emulator/webhooks/deliveries/..%2Fx/resend')
        .set('authorization', admin())
        .expect(400);
    } finally {
      receiver.close();
    }
  });

  it('serves the console page to this machine only', async () => {
    const page = await request(emulator.app).get('/_emulator/console').expect(200);
    expect(page.text).toContain('convo-kit emulator console');
    expect(page.text).not.toContain(emulator.adminKey);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    await request(emulator.app).get('/_emulator/console').set('host', 'rebound.example').expect(403);
    // Nor a link or a script on another site's page.
    const linked = await request(emulator.app)
      .get('/_emulator/console')
      .set('sec-fetch-site', 'cross-site')
      .expect(403);
    // The console has no token: its refusal says nothing of one.
    expect(linked.body.error.message).toBe(
      "The console answers its own page only: a request from another site's page is refused",
    );
  });
});

describe('what an empty console panel says', () => {
  /** Every route the emulator serves, as `METHOD /path` with `:name` parameters. */
  const served = new Set([
    ...allEndpoints().map(({ def }) => `${def.method} ${def.path.replace(/:\w+/g, ':')}`),
    ...EMULATOR_CONTROLS.map((c) => `POST /_emulator${c.path.replace(/:\w+/g, ':')}`),
  ]);

  it.each([...PANELS, ...DETAIL_PANELS].map((p) => [p.id, p.empty] as const))(
    '%s: one line saying how one is added, naming only routes the emulator serves',
    (_id, empty) => {
      expect(empty).toMatch(/^(Nothing yet|None): \S.{10,110}$/);
      for (const [, method, path] of empty!.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[\w/{}:-]+)/g))
        expect(served).toContain(`${method} ${path!.replace(/\{\w+\}/g, ':')}`);
    },
  );
});

describe.skipIf(!HAS_CHROMIUM)('the emulator console in Chromium', () => {
  it('says in an empty panel how to fill it', async () => {
    const fresh = await createEmulator({});
    const listening = await fresh.listen(0);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${listening.url}/_emulator/console#key=${fresh.adminKey}`);
      // A new emulator has no webhook endpoint (the seed leaves them to the user).
      await page.locator('#panel-webhooks').scrollIntoViewIfNeeded();
      const webhooks = PANELS.find((p) => p.id === 'webhooks')!;
      await expect
        .poll(() => page.locator('#panel-webhooks tbody').textContent(), { timeout: 10_000 })
        .toBe(webhooks.empty);
    } finally {
      await browser.close();
      await listening.close();
      await fresh.close();
    }
  }, 60_000);

  it('asks for the admin key, then writes in as a customer and the conversation appears', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      await page.goto(`${server.url}/_emulator/console`);
      await page.fill('#key', 'svc_live_wrongwrongwrongwrongwrongwrong12');
      await page.click('#key-form button');
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('That key was refused');

      await page.goto(`${server.url}/_emulator/console#key=${emulator.adminKey}`);
      // The key leaves the address bar at once.
      await expect.poll(() => page.url()).not.toContain(emulator.adminKey);
      await page.locator('#console').waitFor({ state: 'visible' });
      await page.selectOption('#channel', 'photo_social');
      await page.fill('#handle', '@grace.h');
      await page.fill('#name', 'Grace Hopper');
      await page.fill('#content', 'Where is my parcel?');
      await page.click('#inbound button.primary');
      const row = page.locator('#panel-conversations tbody tr', { hasText: 'Grace Hopper' });
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      expect(await row.textContent()).toContain('Where is my parcel?');
      expect(await row.textContent()).toContain('photo_social');
      await screenshot(page, 'emulator-console-wrote-in');
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe.skipIf(!HAS_CHROMIUM)('the console panels of comments, automations, accounts and AI groups', () => {
  let browser: Browser;
  let page: Page;
  const failures: string[] = [];
  const api = (method: 'get' | 'put' | 'post', path: string) =>
    request(emulator.app)[method](path).set('authorization', admin());
  const row = (panel: string, text: string) => page.locator(`#panel-${panel} tbody tr`, { hasText: text });
  /** Scrolls to a panel: the console asks only for what is on screen, and for a panel as it comes into view. */
  const view = (panel: string) => page.locator(`#panel-${panel}`).scrollIntoViewIfNeeded();

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${server.url}/_emulator/console#key=${emulator.adminKey}`);
    await page.locator('#console').waitFor({ state: 'visible' });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('comments on a post as the customer: the keyword rule replies and the comment is listed', async () => {
    await page.fill('#handle', '@tove.k');
    await page.fill('#name', 'Tove Karlsen');
    await page.selectOption('#comment-account', SEED_IDS.photo);
    await page.fill('#comment-post', 'post_autumn_drop');
    await page.fill('#comment-content', 'What is the price of the wool scarf?');
    await page.click('#comment button.primary');
    await expect.poll(() => page.locator('#notice').textContent()).toContain('keyword rule');
    await view('comments');
    const comment = row('comments', 'wool scarf');
    await expect.poll(() => comment.count(), { timeout: 10_000 }).toBe(1);
    const text = await comment.textContent();
    expect(text).toContain('Tove Karlsen');
    expect(text).toContain('post_autumn_drop');
    expect(text).toContain('Every price is on the product page');
    const listed = await api('get', `/v1/comments?integration_id=${SEED_IDS.photo}`).expect(200);
    expect(listed.body.data.find((c: { content: string }) => c.content.includes('wool scarf')).replies[0].source).toBe(
      'rule',
    );

    // The workspace-wide AI switch for comments, from its panel.
    await view('comment-rules');
    const state = page.locator('#panel-comment-rules .toggle-state');
    await expect.poll(() => state.textContent()).toBe('off');
    await page.click('#panel-comment-rules button.toggle');
    await expect.poll(() => state.textContent()).toBe('on');
    await expect.poll(() => page.locator('#notice').textContent()).toBe('AI replies to comments (workspace-wide): on');
    expect((await api('get', '/v1/comments/settings').expect(200)).body.ai_replies_enabled).toBe(true);
    await screenshot(page, 'emulator-console-comment');
    expect(failures).toEqual([]);
  }, 60_000);

  it('triggers an automation on a conversation and shows its run', async () => {
    await page.selectOption('#channel', 'phone');
    await page.fill('#handle', '+14155550188');
    await page.fill('#name', 'Ines Park');
    await page.fill('#content', 'Is my order ready?');
    await page.click('#inbound button.primary');
    await expect.poll(() => row('conversations', 'Ines Park').count(), { timeout: 10_000 }).toBe(1);
    const conversationId = await row('conversations', 'Ines Park').getAttribute('data-id');
    await expect.poll(() => page.locator('#automation-conversation option', { hasText: 'Ines Park' }).count()).toBe(1);
    await page.selectOption('#automation-conversation', conversationId!);
    await page.fill('#automation-variables', 'Ines, A-2044');
    await view('automations');
    await row('automations', 'Order ready follow-up').getByRole('button', { name: 'Trigger' }).click();

    await expect.poll(() => page.locator('#notice').textContent()).toMatch(/run run_\S+ completed, message msg_/);
    await view('conversations');
    await expect
      .poll(() => row('conversations', 'Ines Park').textContent(), { timeout: 10_000 })
      .toContain('Hi Ines, your order A-2044 is ready for pickup.');
    const automation = await api('get', '/v1/automations/aut_order_followup').expect(200);
    expect(automation.body.last_run_at).not.toBeNull();
    await view('automations');
    const lastRun = row('automations', 'Order ready follow-up').locator('td').nth(5);
    await expect
      .poll(() => lastRun.textContent())
      .toBe(
        new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'long' }).format(
          new Date(automation.body.last_run_at),
        ),
      );
    // A paused automation offers no Trigger.
    expect(await row('automations', 'Review request').getByRole('button', { name: 'Trigger' }).count()).toBe(0);
    // Pause and resume from the row (POST /_emulator/automations/:id/status).
    const price = row('automations', 'Price list');
    await price.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => price.getByRole('button', { name: 'Resume' }).count(), { timeout: 10_000 }).toBe(1);
    expect((await api('get', '/v1/automations/aut_price_keyword').expect(200)).body.status).toBe('paused');
    await price.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => price.getByRole('button', { name: 'Pause' }).count(), { timeout: 10_000 }).toBe(1);
    expect((await api('get', '/v1/automations/aut_price_keyword').expect(200)).body.status).toBe('active');
    await screenshot(page, 'emulator-console-automation');
    expect(failures).toEqual([]);
  }, 60_000);

  it("sends STOP as the customer: the contact reads opted out, and the conversation's messages show the thread", async () => {
    // Ines Park wrote in and got the automation's message in the test before.
    await page.fill('#handle', '+14155550188');
    await page.click('#stop');
    // Said apart from the message before it, which named the same conversation.
    await expect
      .poll(() => page.locator('#notice').textContent(), { timeout: 10_000 })
      .toMatch(/^Sent STOP as \+14155550188: conversation conv_/);
    await view('contacts');
    const contact = row('contacts', 'Ines Park');
    await expect.poll(() => contact.locator('td').nth(5).textContent(), { timeout: 10_000 }).toBe('yes');
    expect(await contact.textContent()).toContain('+14155550188');

    await view('conversations');
    await row('conversations', 'Ines Park').getByRole('button', { name: 'Messages' }).click();
    expect(await page.locator('#panel-conversation-messages .subject').textContent()).toBe('Ines Park');
    const messages = page.locator('#panel-conversation-messages tbody tr');
    await expect.poll(() => messages.count(), { timeout: 10_000 }).toBe(3);
    // Newest first: the stop word, the automation's message, the first message.
    expect(await messages.nth(0).textContent()).toContain('STOP');
    expect(await messages.nth(1).textContent()).toContain('automation');
    expect(await messages.nth(1).textContent()).toContain('ready for pickup');
    expect(await messages.nth(2).textContent()).toContain('Is my order ready?');
    await page.locator('#panel-conversation-messages .hide').click();
    expect(await page.locator('#panel-conversation-messages').isHidden()).toBe(true);
    expect(failures).toEqual([]);
  }, 60_000);

  it('uploads a knowledge file to an AI group, and shows its providers with the secret masked as the API reads it', async () => {
    const secret = 'sk_console_never_shown_7391';
    await api('put', `/v1/channels/groups/${SEED_IDS.group}/providers/custom_reply`)
      .send({ enabled: true, config: { url: 'http://127.0.0.1:9/reply', timeout_ms: 3000 }, secret })
      .expect(200);

    await view('groups');
    await row('groups', 'Support team').getByRole('button', { name: 'Knowledge' }).click();
    await page.locator('#panel-group-knowledge').waitFor({ state: 'visible' });
    expect(await page.locator('#panel-group-knowledge .subject').textContent()).toBe('Support team');
    await page.selectOption('#knowledge-type', 'policy');
    await page.fill('#knowledge-title', 'Returns policy');
    await page.setInputFiles('#knowledge-file', {
      name: 'returns.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Returns\n\nAnything unworn comes back within 30 days, postage paid.\n'),
    });
    await page.click('#knowledge-upload button.primary');
    // The first upload starts the parse process (parse-pool.ts), which loads its parsers from TypeScript sources:
    // seconds on a busy machine.
    await expect.poll(() => page.locator('#notice').textContent(), { timeout: 30_000 }).toContain('Added returns.md');
    const entry = row('group-knowledge', 'Returns policy');
    await expect.poll(() => entry.count(), { timeout: 10_000 }).toBe(1);
    expect(await entry.textContent()).toContain('within 30 days');
    expect(await entry.textContent()).toContain('policy');

    await view('groups');
    await row('groups', 'Support team').getByRole('button', { name: 'Providers' }).click();
    const provider = row('group-providers', 'custom_reply');
    await expect.poll(() => provider.count(), { timeout: 10_000 }).toBe(1);
    expect(await provider.textContent()).toContain('****7391');
    expect(await provider.textContent()).toContain('url: http://127.0.0.1:9/reply, timeout_ms: 3000');
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'emulator-console-ai-group');

    // The knowledge entry goes again from its row.
    await view('group-knowledge');
    await entry.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => entry.count(), { timeout: 10_000 }).toBe(0);
    const left = await api('get', `/v1/channels/groups/${SEED_IDS.group}/knowledge`).expect(200);
    expect(left.body.data.map((e: { title: string }) => e.title)).not.toContain('Returns policy');
    expect(failures).toEqual([]);
  }, 60_000);

  it('enrolls a phone in a journey from its row, and the enrollment is listed with its first step', async () => {
    const journey = await api('post', '/v1/journeys')
      .send({
        name: 'Shipping updates',
        trigger_name: 'shipping-updates',
        events: ['order.shipped'],
        steps: [{ template_id: 'tpl_order_update', delay_seconds: 0 }],
      })
      .expect(201);
    await api('post', `/v1/journeys/${journey.body.id}/status`).send({ status: 'active' }).expect(200);
    await view('journeys');
    await expect
      .poll(() => row('journeys', 'Shipping updates').getByRole('button').count(), { timeout: 10_000 })
      .toBe(1);

    expect(await row('journeys', 'Shipping updates').textContent()).toContain('tpl_order_update');
    // Its template needs {{1}} and {{2}}: without them the service names what is missing.
    await page.fill('#enroll-phone', '+14155550166');
    await page.fill('#enroll-variables', '');
    await row('journeys', 'Shipping updates').getByRole('button', { name: 'Enroll' }).click();
    await expect.poll(() => page.locator('#notice').textContent()).toContain('metadata.1');

    await page.fill('#enroll-variables', 'A-3055, on Friday');
    await row('journeys', 'Shipping updates').getByRole('button', { name: 'Enroll' }).click();
    await expect
      .poll(() => page.locator('#notice').textContent())
      .toMatch(/Enrolled \+14155550166 .*first step (sent|delivered)/);
    await view('enrollments');
    const enrollment = row('enrollments', '+14155550166');
    await expect.poll(() => enrollment.count(), { timeout: 10_000 }).toBe(1);
    expect(await enrollment.textContent()).toContain('shipping-updates');
    const history = await api('get', '/v1/trigger/history?phone=%2B14155550166').expect(200);
    expect(history.body.data).toHaveLength(1);

    // As the shop: the business event the journey listens for enrolls another phone.
    await page.fill('#enroll-phone', '+14155550177');
    await page.fill('#event-name', 'order.shipped');
    await page.click('#enroll button.primary');
    await expect
      .poll(() => page.locator('#notice').textContent())
      .toMatch(new RegExp(`^Fired order.shipped for \\+14155550177: journeys ${journey.body.id} enrolled it as enr_`));
    await view('enrollments');
    await expect.poll(() => row('enrollments', '+14155550177').count(), { timeout: 10_000 }).toBe(1);
    await page.fill('#event-name', 'order.returned');
    await page.click('#enroll button.primary');
    await expect.poll(() => page.locator('#notice').textContent()).toContain('no journey listens for it');
    await screenshot(page, 'emulator-console-enrolled');
    expect(failures).toEqual([]);
  }, 60_000);

  it('lists API keys by label and last 4 characters, never their values', async () => {
    const created = await api('post', '/v1/keys')
      .send({ label: 'console test key', scopes: ['contacts:read'], kind: 'live' })
      .expect(201);
    await view('keys');
    const key = row('keys', 'console test key');
    await expect.poll(() => key.count(), { timeout: 10_000 }).toBe(1);
    expect(await key.textContent()).toContain(created.body.key.slice(-4));
    expect(await key.textContent()).toContain('never');
    // A time, wherever it is shown, in the reader's locale rather than ISO.
    expect(await row('keys', 'Emulator admin key').textContent()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(await page.content()).not.toContain(created.body.key);
    expect(await page.content()).not.toContain(emulator.adminKey);
  }, 30_000);

  it('approves and rejects templates under review, and hands a conversation off, from their rows', async () => {
    const created = await api('post', '/v1/templates')
      .send({ name: 'console_reject_me', category: 'MARKETING', body: 'Half price on {{1}} today.' })
      .expect(201);
    await view('templates');
    const approve = row('templates', 'spring_sale');
    const reject = row('templates', 'console_reject_me');
    await expect.poll(() => reject.getByRole('button', { name: 'Reject' }).count(), { timeout: 10_000 }).toBe(1);
    // An approved template has nothing to review.
    expect(await row('templates', 'order_update').getByRole('button').count()).toBe(0);
    await approve.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => approve.locator('td').nth(2).textContent(), { timeout: 10_000 }).toBe('approved');
    expect(await approve.getByRole('button').count()).toBe(0);
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => reject.locator('td').nth(2).textContent(), { timeout: 10_000 }).toBe('rejected');
    const rejected = await api('get', `/v1/templates/${created.body.id}`).expect(200);
    expect(rejected.body.rejection_reason).toBe('Rejected in the console');

    await view('conversations');
    const conversation = row('conversations', 'Ines Park');
    const conversationId = await conversation.getAttribute('data-id');
    await conversation.getByRole('button', { name: 'Hand off' }).click();
    await expect
      .poll(async () => {
        const tickets = await api('get', '/v1/tickets?limit=100').expect(200);
        return tickets.body.data.filter((t: { conversation_id: string }) => t.conversation_id === conversationId)
          .length;
      })
      .toBe(1);
    expect(failures).toEqual([]);
  }, 30_000);

  it('lists the attempts of each webhook endpoint, coloured by outcome, and resends one from its row', async () => {
    const receiver = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as { port: number };
      const events = ['conversation.created'];
      const ok = await api('post', '/v1/webhooks')
        .send({ url: `http://127.0.0.1:${port}/ok`, events })
        .expect(201);
      // Port 9 (discard) has no listener here: the attempt gets no answer.
      const dead = await api('post', '/v1/webhooks').send({ url: 'http://127.0.0.1:9/dead', events }).expect(201);
      await api('post', '/_emulator/inbound')
        .send({ channel: 'phone', from: { handle: '+14155550192' }, content: 'Any news?' })
        .expect(201);
      const deliveryOf = async (hook: { body: { id: string } }) => {
        const attempts = () => api('get', `/v1/webhooks/${hook.body.id}/deliveries`).expect(200);
        await expect.poll(async () => (await attempts()).body.data.length, { timeout: 10_000 }).toBe(1);
        return (await attempts()).body.data[0].delivery_id as string;
      };
      const [delivered, failed] = [await deliveryOf(ok), await deliveryOf(dead)];

      await view('attempts');
      const attempt = row('attempts', delivered);
      await expect.poll(() => attempt.count(), { timeout: 10_000 }).toBe(1);
      expect(await attempt.textContent()).toContain(`http://127.0.0.1:${port}/ok`);
      expect(await attempt.locator('td.status-delivered').textContent()).toBe('204');
      await expect.poll(() => row('attempts', failed).count(), { timeout: 10_000 }).toBe(1);
      expect(await row('attempts', failed).locator('td.status-failed').textContent()).toBe('no answer');

      await attempt.getByRole('button', { name: 'Resend' }).click();
      await expect.poll(() => page.locator('#notice').textContent()).toBe(`Resent ${delivered}`);
      await expect.poll(() => row('attempts', delivered).count(), { timeout: 10_000 }).toBe(2);
      expect(failures).toEqual([]);
    } finally {
      receiver.close();
    }
  }, 30_000);

  it("switches an account's comment AI from the connected accounts panel", async () => {
    await view('accounts');
    const account = row('accounts', SEED_IDS.page);
    await account.getByRole('button', { name: 'Comment AI on' }).click();
    await expect.poll(() => account.getByRole('button', { name: 'Comment AI off' }).count()).toBe(1);
    const listed = await api('get', '/v1/channels').expect(200);
    const page_ = listed.body.data.find((a: { integration_id: string }) => a.integration_id === SEED_IDS.page);
    expect(page_.ai_comment_replies_enabled).toBe(true);
    expect(failures).toEqual([]);
  }, 30_000);
});

describe.skipIf(!HAS_CHROMIUM)('what the console asks for', () => {
  it('asks for every panel when it opens, then refreshes the panels in view, and a panel as it scrolls into view', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const asked: string[] = [];
      page.on('request', (r) => {
        const { pathname } = new URL(r.url());
        if (pathname.startsWith('/v1/') || pathname.startsWith('/_emulator/console/')) asked.push(pathname);
      });
      // Each refresh starts by reading the emulator's time (GET /_emulator, which needs no key).
      const refreshStarts = () => page.waitForRequest((r) => new URL(r.url()).pathname === '/_emulator');
      await page.goto(`${server.url}/_emulator/console#key=${emulator.adminKey}`);
      await page.locator('#console').waitFor({ state: 'visible' });
      // The opening asks for every panel, the ones below the fold too.
      await expect
        .poll(() => page.locator('#panel-keys tbody tr', { hasText: 'Emulator admin key' }).count(), {
          timeout: 20_000,
        })
        .toBe(1);
      expect(asked).toEqual(expect.arrayContaining(['/_emulator/console/conversations', '/v1/keys', '/v1/campaigns']));
      await refreshStarts();
      asked.length = 0;
      await refreshStarts();
      // One whole refresh at the top of the page: the conversations, the accounts a customer can comment on (its
      // form's select), and none of the panels further down.
      expect(asked).toEqual(expect.arrayContaining(['/_emulator/console/conversations', '/v1/channels']));
      expect(asked).not.toContain('/v1/keys');
      expect(asked.length).toBeLessThan(PANELS.length / 2);

      await page.locator('#panel-keys').scrollIntoViewIfNeeded();
      await expect.poll(() => asked).toContain('/v1/keys');
      asked.length = 0;
      await refreshStarts();
      await refreshStarts();
      expect(asked).toContain('/v1/keys');
      expect(asked).not.toContain('/_emulator/console/conversations');
    } finally {
      await browser.close();
    }
  }, 60_000);
});

/**
 * The console of an emulator of the test's own (a plan of its own, or one the test stops), open in Chromium
 * with the admin key; everything is closed after `use`, the server too unless the test closed it.
 */
async function withOwnConsole(
  options: EmulatorOptions,
  use: (page: Page, server: { url: string; close(): Promise<void> }) => Promise<void>,
): Promise<void> {
  const own = await createEmulator(options);
  const ownServer = await own.listen(0);
  let serverOpen = true;
  const closeServer = async () => {
    if (!serverOpen) return;
    serverOpen = false;
    await ownServer.close();
  };
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${ownServer.url}/_emulator/console#key=${own.adminKey}`);
    await page.locator('#console').waitFor({ state: 'visible' });
    await use(page, { url: ownServer.url, close: closeServer });
  } finally {
    await browser.close();
    await closeServer();
    await own.close();
  }
}

describe.skipIf(!HAS_CHROMIUM)('the console on a plan with a small rate limit', () => {
  it('waits out Retry-After once refused, keeping the rows it has', async () => {
    await withOwnConsole({ plan: 'free' }, async (page) => {
      const rows = page.locator('#panel-conversations tbody tr');
      await expect.poll(() => rows.count()).toBeGreaterThan(1);
      const shown = await rows.count();
      // Each message written in refreshes what is on screen: 30 requests a minute run out within a few dozen.
      for (let i = 0; i < 40; i += 1) {
        const settled = page.waitForResponse((r) => r.status() === 429 || new URL(r.url()).pathname === '/v1/channels');
        await page.fill('#content', `Hello ${i}`);
        await page.click('#inbound button.primary');
        if ((await settled).status() === 429) break;
      }
      await expect
        .poll(() => page.locator('#notice').textContent())
        .toMatch(/^Rate limited: the console refreshes again in \d+ s/);
      expect(await rows.count()).toBeGreaterThanOrEqual(shown);
      expect(await page.locator('#panel-conversations tbody').textContent()).not.toContain('RATE_LIMITED');
      await screenshot(page, 'emulator-console-rate-limited');
    });
  }, 60_000);
});

describe.skipIf(!HAS_CHROMIUM)('the emulator console with hostile data, in Chromium', () => {
  it("shows a customer's markup as text, and times with their zone and the month by name", async () => {
    const markup = `<img src=x onerror="window.__xss=1"></script><script>window.__xss=2</script>`;
    await request(emulator.app)
      .post('/_emulator/inbound')
      .set('authorization', `Bearer ${emulator.adminKey}`)
      .send({ channel: 'phone', from: { handle: '+14155550999', name: markup }, content: `hi ${markup}` })
      .expect(201);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      page.on('dialog', (d) => failures.push(`dialog ${d.message()}`) && void d.dismiss());
      await page.goto(`${server.url}/_emulator/console#key=${emulator.adminKey}`);
      await page.locator('#console').waitFor({ state: 'visible' });
      const row = page.locator('#panel-conversations tbody tr', { hasText: 'onerror' });
      await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain(markup);
      // en-GB in Berlin: "26 Nov 2026, 03:28:45 CET", never 26/11/2026 without a zone.
      await expect
        .poll(() => page.locator('#now').textContent())
        .toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, [\d:]+ (CET|CEST|GMT\+\d)$/);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('main img').count()).toBe(0);
      await screenshot(page, 'emulator-console-markup-as-text');
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('says in words that the emulator stopped answering', async () => {
    await withOwnConsole({}, async (page, ownServer) => {
      await ownServer.close();
      await expect
        .poll(() => page.getByRole('status').textContent(), { timeout: 15_000 })
        .toBe('The emulator did not answer (is it still running?)');
    });
  }, 60_000);
});
