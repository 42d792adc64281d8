import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AssignmentBook } from '../src/assignment-book.js';
import { withinBusinessHours } from '../src/business-hours.js';
import { chooseAssignee, type RoutingFacts } from '../src/choose-assignee.js';
import { loadRoutingConfig, parseRoutingConfig, RoutingConfigError } from '../src/routing-config.js';
import { RULES_PATH, WEDNESDAY_MORNING } from './emulator-harness.js';

const shipped = () =>
  JSON.parse(readFileSync(RULES_PATH, 'utf8')) as {
    rules: { name: string; when: Record<string, unknown>; assign: string[] }[];
    business_hours: { start: string };
  };
const config = loadRoutingConfig(RULES_PATH);
const facts = (overrides: Partial<RoutingFacts> = {}): RoutingFacts => ({
  kind: 'handoff',
  priority: 'normal',
  channel: 'social_page',
  text: 'Hello',
  at: WEDNESDAY_MORNING,
  ...overrides,
});
const open = (id: string, assignee: string, version = 1) => ({ id, version, status: 'open', assignee });

describe('the rules file', () => {
  it('ships valid', () => {
    expect(config.rules.length).toBeGreaterThan(3);
  });

  it('names the rule and the field of an unknown assignee', () => {
    const bad = shipped();
    bad.rules[1].assign = ['ana', 'bob'];
    expect(() => parseRoutingConfig(bad, 'rules.json')).toThrow(
      'rule 2 ("refunds and cancellations"): assign.1: "bob" is not one of the assignees',
    );
  });

  it('names the rule and the field of a bad condition', () => {
    const bad = shipped();
    bad.rules[2].when = { priority: ['hihg'] };
    expect(() => parseRoutingConfig(bad, 'rules.json')).toThrow(/rule 3 \("urgent work"\): when\.priority\.0: .*"low"/);
  });

  it('refuses an unknown condition, a bad clock time and an unknown time zone', () => {
    const bad = shipped() as ReturnType<typeof shipped> & { timezone: string };
    bad.rules[0].when = { kinds: ['handoff'] };
    bad.business_hours.start = '25:00';
    bad.timezone = 'Mars/Olympus';
    const message = (() => {
      try {
        parseRoutingConfig(bad, 'rules.json');
        return '';
      } catch (error) {
        expect(error).toBeInstanceOf(RoutingConfigError);
        return (error as Error).message;
      }
    })();
    expect(message).toContain('rule 1 ("safety reviews go to the trust lead"): when: Unrecognized key: "kinds"');
    expect(message).toContain('business_hours.start: expected HH:MM');
    expect(message).toContain('timezone: expected an IANA time zone');
  });

  it('says when the file is missing or not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    try {
      expect(() => loadRoutingConfig(join(dir, 'none.json'))).toThrow(/cannot read the rules file .*none\.json/);
      writeFileSync(join(dir, 'broken.json'), '{ "rules": [');
      expect(() => loadRoutingConfig(join(dir, 'broken.json'))).toThrow(/broken\.json is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run check-rules', () => {
  const checkRules = (file: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/check-rules-command.ts', file], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
      timeout: 20_000,
    });

  it('passes the shipped rules and fails a bad file, naming the rule', () => {
    const ok = checkRules(RULES_PATH);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('all valid');
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    try {
      const bad = shipped();
      bad.rules[1].assign = ['ana', 'bob'];
      writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
      const failed = checkRules(join(dir, 'bad.json'));
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain('rule 2 ("refunds and cancellations"): assign.1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('choosing an assignee', () => {
  it('sends safety reviews to the trust lead whatever else holds', () => {
    expect(
      chooseAssignee(facts({ kind: 'safety_review', text: 'refund now' }), config, new AssignmentBook(config)),
    ).toMatchObject({ assignee: 'chloe', rule: 'safety reviews go to the trust lead' });
  });

  it("matches keywords in the customer's words, case-insensitively, and raises the priority", () => {
    const decision = chooseAssignee(facts({ text: 'I want a REFUND for this' }), config, new AssignmentBook(config));
    expect(decision).toMatchObject({ rule: 'refunds and cancellations', priority: 'high' });
    expect(chooseAssignee(facts({ text: 'prefund' }), config, new AssignmentBook(config))?.rule).not.toBe(
      'refunds and cancellations',
    );
  });

  it('never lowers a priority', () => {
    expect(
      chooseAssignee(facts({ text: 'refund', priority: 'urgent' }), config, new AssignmentBook(config))?.priority,
    ).toBe('urgent');
  });

  it('routes by channel inside business hours and to the night desk outside them', () => {
    expect(chooseAssignee(facts({ channel: 'phone' }), config, new AssignmentBook(config))?.rule).toBe(
      'phone handoffs',
    );
    const saturday = new Date('2026-11-21T10:00:00Z');
    expect(chooseAssignee(facts({ channel: 'phone', at: saturday }), config, new AssignmentBook(config))).toMatchObject(
      { assignee: 'night-desk' },
    );
  });

  it('reads business hours in the configured time zone', () => {
    const hours = {
      timezone: 'America/New_York',
      business_hours: { days: ['wed' as const], start: '09:00', end: '17:00' },
    };
    expect(withinBusinessHours(new Date('2026-11-18T15:00:00Z'), hours)).toBe(true); // 10:00 in New York
    expect(withinBusinessHours(new Date('2026-11-18T10:00:00Z'), hours)).toBe(false); // 05:00 in New York
    expect(withinBusinessHours(new Date('2026-11-18T22:30:00Z'), hours)).toBe(false); // 17:30
  });

  it('takes turns (round robin) and skips anyone at their load limit', () => {
    const book = new AssignmentBook(config);
    const phone = facts({ channel: 'phone' });
    const first = chooseAssignee(phone, config, book)!;
    book.advance(first.rule, ['ana', 'ben'], first.assignee);
    expect(chooseAssignee(phone, config, book)?.assignee).toBe(first.assignee === 'ana' ? 'ben' : 'ana');
    for (let i = 0; i < 5; i += 1) book.track(open(`tkt_ben_${i}`, 'ben'));
    book.advance(first.rule, ['ana', 'ben'], 'ana');
    expect(chooseAssignee(phone, config, book)?.assignee).toBe('ana');
    for (let i = 0; i < 5; i += 1) book.track(open(`tkt_ana_${i}`, 'ana'));
    // Both phone candidates are full: the ticket passes to the fallback rule.
    expect(chooseAssignee(phone, config, book)).toMatchObject({ rule: 'everything else', assignee: 'chloe' });
    for (let i = 0; i < 3; i += 1) book.track(open(`tkt_chloe_${i}`, 'chloe'));
    expect(chooseAssignee(phone, config, book)).toBeNull();
  });

  it('counts load from events in any order, each once', () => {
    const book = new AssignmentBook(config);
    expect(book.track(open('tkt_1', 'ana', 2))).toBe(true);
    expect(book.track(open('tkt_1', 'ana', 2))).toBe(false);
    expect(book.track(open('tkt_1', 'ben', 1))).toBe(false); // an older event arriving late
    expect(book.openCount('ana')).toBe(1);
    expect(book.track({ id: 'tkt_1', version: 3, status: 'closed', assignee: 'ana' })).toBe(true);
    expect(book.openCount('ana')).toBe(0);
    expect(book.track(open('tkt_1', 'ana', 2))).toBe(false); // the close stands
    expect(book.openCount('ana')).toBe(0);
  });
});
