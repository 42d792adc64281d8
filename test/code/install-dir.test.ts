import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS, removeAbandoned } from '../support/install-dir.js';

// The install folders of test:registry and templates.test.ts live in RAM (/dev/shm); a run killed before its
// clean-up would hold its hundreds of MB there, so the next run removes folders of its kind left that long.

const parent = mkdtempSync(join(tmpdir(), 'install-dir-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('removeAbandoned', () => {
  it("removes a killed run's old folder of the same kind and nothing else", () => {
    const made = (name: string, ageMs: number) => {
      const path = join(parent, name);
      mkdirSync(join(path, 'node_modules'), { recursive: true });
      const when = (Date.now() - ageMs) / 1000;
      utimesSync(path, when, when);
    };
    made('registry-AbC123', ABANDONED_AFTER_MS + 60_000); // a killed run's
    made('registry-XyZ789', 60_000); // a run going on now
    made('starter-install-Old999', ABANDONED_AFTER_MS + 60_000); // another kind
    made('registry-notmkdtemp', ABANDONED_AFTER_MS + 60_000); // not a folder mkdtemp made
    removeAbandoned(parent, 'registry-');
    expect(readdirSync(parent).sort()).toEqual(['registry-XyZ789', 'registry-notmkdtemp', 'starter-install-Old999']);
  });
});
