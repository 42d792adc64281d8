import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src/emulator/api-failure.js';
import { responseTimes } from '../../src/emulator/domain/analytics/analytics.js';
import { providerOutcome } from '../../src/emulator/domain/shared/provider-outcome.js';
import { resolveTemplateSender } from '../../src/emulator/domain/templates/template-sender.js';
import { windowOpen } from '../../src/emulator/domain/conversations/service-window.js';
import { checkIfMatch } from '../../src/emulator/domain/tickets/ticket-version.js';
import { isSeeded, MAX_SEED_SIZE, seed, SEED_IDS } from '../../src/emulator/seed.js';
import { SCHEMA_SQL } from '../../src/emulator/state/docs-schema.js';
import { versionedCache } from '../../src/emulator/state/kind-versions.js';
import { stores, type Stores } from '../../src/emulator/state/stores.js';
import type { Message } from '../../src/resources/index.js';

const open: Database.Database[] = [];
afterEach(() => {
  while (open.length > 0) open.pop()!.close();
});

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

function seeded(size?: number) {
  const db = new Database(':memory:');
  open.push(db);
  db.exec(SCHEMA_SQL);
  const clock = { now: () => NOW, iso: () => new Date(NOW).toISOString(), advance: () => undefined };
  seed({ db, clock }, { size });
  return stores(db);
}

describe('seed', () => {
  it('builds the named workspace: four accounts (two phone numbers), default stages, a chat per provider outcome', () => {
    const s = seeded(0);
    expect(
      s.accounts
        .all()
        .map((a) => a.channel)
        .sort(),
    ).toEqual(['phone', 'phone', 'photo_social', 'social_page']);
    expect(s.stages.list().data.map((x) => x.id)).toEqual(['new', 'contacted', 'qualified', 'proposal', 'won', 'lost']);
    expect(s.contacts.require(SEED_IDS.sendFailed.contact).phone).toMatch(/0001$/);
    expect(s.contacts.require(SEED_IDS.throttled.contact).phone).toMatch(/0002$/);
    expect(s.contacts.require(SEED_IDS.optedOut.contact)).toMatchObject({
      opted_out: true,
      phone: expect.stringMatching(/0003$/),
    });
    expect(
      s.contacts
        .require(SEED_IDS.twoAccounts.contact)
        .identities.map((i) => i.integration_id)
        .sort(),
    ).toEqual([SEED_IDS.phoneMain, SEED_IDS.phoneSupport]);
    expect(windowOpen(s.conversations.require(SEED_IDS.delivered.conversation), NOW)).toBe(true);
    expect(windowOpen(s.conversations.require(SEED_IDS.windowClosed.conversation), NOW)).toBe(false);
    expect(
      s.templates
        .all()
        .map((t) => t.status)
        .sort(),
    ).toEqual(['approved', 'approved', 'approved', 'draft', 'pending_review', 'rejected']);
  });

  it('scales with size, keeps generated numbers out of the sandbox suffixes, and replaces rather than adds on a second run', () => {
    const s = seeded(300);
    expect(s.conversations.count()).toBe(309);
    const phones = s.contacts
      .all()
      .filter((c) => c.id.startsWith('ct_seed_'))
      .map((c) => c.phone)
      .filter((p) => p !== null);
    expect(phones.length).toBeGreaterThan(100);
    expect(phones.some((p) => /000[123]$/.test(p))).toBe(false);
    const windows = s.conversations.all({ channel: 'phone' }).map((c) => windowOpen(c, NOW));
    expect(windows).toContain(true);
    expect(windows).toContain(false);
    const db = open.at(-1)!;
    expect(isSeeded(db)).toBe(true);
    seed({ db, clock: { now: () => NOW, iso: () => '', advance: () => undefined } }, { size: 2 });
    expect(s.conversations.count()).toBe(11);
  });

  it('refuses a size that is not an integer in range, naming the value', () => {
    expect(() => seeded(-1)).toThrow(/got -1/);
    expect(() => seeded(MAX_SEED_SIZE + 1)).toThrow(RangeError);
    expect(() => seeded(1.5)).toThrow(/integer/);
  });
});

describe('list pages', () => {
  it('answers a page as JSON text with the bytes JSON.stringify gives the parsed page, on every page of every collection', () => {
    const s = seeded(40);
    for (const [name, collection] of Object.entries(s) as [string, Stores[keyof Stores]][]) {
      for (const where of [{}, { status: 'open' }, { channel: 'phone' }]) {
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = collection.list({ limit: 7, cursor, where });
          expect(collection.listJson({ limit: 7, cursor, where }).text, `${name} page ${pages}`).toBe(
            JSON.stringify(page),
          );
          cursor = page.pagination.next_cursor ?? undefined;
          pages++;
        } while (cursor);
      }
    }
  });

  it('answers a page asked for again with what was written since, by any writer, and keeps nothing from a rolled-back write', () => {
    const s = seeded(5);
    const db = open.at(-1)!;
    const ids = () =>
      (JSON.parse(s.contacts.listJson({ limit: 100 }).text) as { data: { id: string }[] }).data.map((c) => c.id);
    const first = ids();
    const copy = (id: string) => ({ ...s.contacts.require(first[0]!), id });
    s.contacts.insert(copy('ct_added'));
    expect(ids()).toEqual(['ct_added', ...first]);
    db.prepare("DELETE FROM docs WHERE kind = 'contacts' AND id = ?").run('ct_added');
    expect(ids()).toEqual(first);
    expect(() =>
      db.transaction(() => {
        s.contacts.insert(copy('ct_rolled_back'));
        expect(ids()).toEqual(['ct_rolled_back', ...first]);
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    s.contacts.insert(copy('ct_after'));
    expect(ids()).toEqual(['ct_after', ...first]);
  });

  it('keeps computed values within their budget, and never one heavier than all of it', () => {
    seeded(0);
    const db = open.at(-1)!;
    const computed: string[] = [];
    const kept = versionedCache<string>(10, (text) => text.length);
    const get = (text: string) =>
      kept(db, ['contacts'], text, () => {
        computed.push(text);
        return text;
      });
    for (const text of ['aaaa', 'bbbb', 'aaaa', 'bbbb']) get(text);
    expect(computed).toEqual(['aaaa', 'bbbb']);
    for (const text of ['cccc', 'aaaa', 'much more than ten', 'much more than ten']) get(text);
    expect(computed).toEqual(['aaaa', 'bbbb', 'cccc', 'aaaa', 'much more than ten', 'much more than ten']);
  });
});

describe('rules', () => {
  it('maps recipient suffixes to the provider outcomes of docs/emulator.md', () => {
    expect(providerOutcome('+14155550001')).toMatchObject({ kind: 'rejected', errorCode: '131026' });
    expect(providerOutcome('+14155550002')).toMatchObject({ kind: 'throttled', errorCode: '131049' });
    expect(providerOutcome('+14155550003')).toEqual({ kind: 'opted_out' });
    expect(providerOutcome('+14155550010')).toEqual({ kind: 'delivered' });
    expect(providerOutcome(null)).toEqual({ kind: 'delivered' });
  });

  it('resolves a template sender: explicit, pinned, single active number, else 409 AMBIGUOUS_INTEGRATION', () => {
    const s = seeded(0);
    const pinned = s.templates.require(SEED_IDS.templates.approved);
    const unpinned = s.templates.require(SEED_IDS.templates.draft);
    expect(resolveTemplateSender(s, pinned).integration_id).toBe(SEED_IDS.phoneMain);
    expect(resolveTemplateSender(s, pinned, SEED_IDS.phoneSupport).integration_id).toBe(SEED_IDS.phoneSupport);
    expect(() => resolveTemplateSender(s, unpinned)).toThrow(
      expect.objectContaining({ code: 'AMBIGUOUS_INTEGRATION', status: 409 }),
    );
    expect(() => resolveTemplateSender(s, unpinned, SEED_IDS.photo)).toThrow(
      expect.objectContaining({ code: 'ACCOUNT_MISMATCH' }),
    );
    expect(() => resolveTemplateSender(s, unpinned, 'int_nope')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    s.accounts.update(SEED_IDS.phoneSupport, (a) => ({ ...a, status: 'disconnected' }));
    expect(resolveTemplateSender(s, unpinned).integration_id).toBe(SEED_IDS.phoneMain);
    expect(() => resolveTemplateSender(s, unpinned, SEED_IDS.phoneSupport)).toThrow(
      expect.objectContaining({ code: 'INVALID_STATE' }),
    );
  });

  it('accepts current, weak, listed and * ETags and refuses a stale one with VERSION_CONFLICT', () => {
    const ticket = { id: 'tkt_1', version: 3 };
    for (const ok of [undefined, '"3"', 'W/"3"', '"1", "3"', '*']) expect(() => checkIfMatch(ticket, ok)).not.toThrow();
    expect(() => checkIfMatch(ticket, '"2"')).toThrow(ApiFailure);
    try {
      checkIfMatch(ticket, '"2"');
    } catch (error) {
      expect(error).toMatchObject({ code: 'VERSION_CONFLICT', status: 409 });
    }
  });

  it('measures a response from the first unanswered customer message to the next reply', () => {
    const m = (direction: Message['direction'], minute: number, conversation_id = 'c1') =>
      ({ conversation_id, direction, created_at: new Date(NOW + minute * 60_000).toISOString() }) as Message;
    const times = responseTimes([
      m('received', 0),
      m('received', 2),
      m('sent', 5),
      m('sent', 6),
      m('received', 10),
      m('sent', 11),
      m('received', 0, 'c2'),
    ]);
    expect(times).toEqual([60, 300]);
  });
});
