import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/seed.js';
import type { StateDocument } from '../../src/emulator/saved-state/state-document.js';
import { tempDir, waitUntil } from './helpers.js';
import { killAllCli, runCli } from './run-cli.js';
import { env, expectFinishedOnce, sendVipCampaign, start, WAIT_MS } from './emulator-state-harness.js';

// The directory form of --export-on-exit and --import (docs/emulator.md, "Saving and loading state"): a state
// saved in the middle of a journey and a campaign, one file per collection, goes on in a fresh emulator.

const dir = tempDir('emulator-state-dir');
afterEach(killAllCli);
afterAll(() => dir.remove());

const HOUR = 3600;
const VARIABLES = { '1': 'A-1', '2': 'today' };
const readJson = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('convo-kit emulator --export-on-exit <dir> and --import <dir>', () => {
  it('saves mid-journey and mid-campaign as files; a fresh emulator finishes both, each step and recipient once', async () => {
    const fixture = dir.file('fixture'); // no .json extension, not there yet: the directory form
    const first = await start(['--seed', '2000', '--export-on-exit', fixture]);
    // Three steps: now, an hour later, another hour later (on the emulator clock).
    const journey = await first.call('POST', '/v1/journeys', {
      name: 'Onboarding',
      trigger_name: 'onboarding',
      steps: [0, HOUR, HOUR].map((delay_seconds) => ({ template_id: SEED_IDS.templates.approved, delay_seconds })),
    });
    expect(journey.status).toBe(201);
    expect((await first.call('POST', `/v1/journeys/${journey.body.id}/status`, { status: 'active' })).status).toBe(200);
    const trigger = await first.call('POST', '/v1/trigger', {
      trigger_name: 'onboarding',
      phone: '+14155557001',
      metadata: VARIABLES,
    });
    expect(trigger.status).toBe(201);
    const enrollmentId = trigger.body.enrollment_id as string;
    const enrollmentIn = async (emulator: typeof first) => {
      const res = await emulator.call('GET', `/v1/trigger/history?journey_id=${journey.body.id}`);
      return (res.body.data as { id: string; status: string; current_step: number; action_ids: string[] }[]).find(
        (e) => e.id === enrollmentId,
      );
    };
    // The first step has gone out; the second waits an hour.
    await waitUntil(
      async () => ((await enrollmentIn(first))?.current_step === 1 ? true : undefined),
      'the first journey step sent',
      WAIT_MS,
    );
    const campaignId = await sendVipCampaign(first);
    const stopped = await first.cli.stop('SIGINT');
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain(`state written to ${fixture}`);

    // One pretty-printed file per collection and list, a manifest naming them, nothing half-written beside it.
    const manifest = readJson<{ format: string; format_version: number; clock: { now: string }; files: string[] }>(
      join(fixture, 'state.json'),
    );
    expect(manifest).toMatchObject({ format: 'convo-kit-emulator-state', format_version: 1 });
    expect(manifest.files.slice(0, 4)).toEqual([
      'api_key_hashes.json',
      'deliveries.json',
      'delivery_attempts.json',
      'request_counts.json',
    ]);
    const collections = manifest.files.filter((f) => f.startsWith('collections/'));
    expect(collections).toEqual([...collections].sort());
    expect(collections).toEqual(expect.arrayContaining(['collections/enrollments.json', 'collections/campaigns.json']));
    expect(readdirSync(join(fixture, 'collections')).sort()).toEqual(collections.map((f) => f.slice(12)).sort());
    expect(readdirSync(dir.path).filter((name) => name.startsWith('.'))).toEqual([]);
    const enrollmentsText = readFileSync(join(fixture, 'collections/enrollments.json'), 'utf8');
    expect(enrollmentsText).toBe(`${JSON.stringify(JSON.parse(enrollmentsText), null, 2)}\n`);
    expect(statSync(join(fixture, 'collections/enrollments.json')).mode & 0o777).toBe(0o600);
    const saved = readJson<Record<string, unknown>[]>(join(fixture, 'collections/enrollments.json'));
    expect(saved.find((e) => e.id === enrollmentId)).toMatchObject({ status: 'active', current_step: 1 });
    const progress = readJson<Record<string, number | string>[]>(
      join(fixture, 'collections/campaign_progress.json'),
    ).find((p) => p.id === campaignId)!;
    const recipients = progress.recipients as number;
    // Saved in the middle of sending: some recipients have their message, the rest do not yet.
    expect(progress.next).toBeLessThan(recipients);
    console.log(`saved: ${String(progress.next)} of ${recipients} recipients done, journey at step 1 of 3`);

    const second = await start(['--import', fixture]);
    await second.cli.waitFor(/state imported from/, WAIT_MS);
    // The campaign finishes, and no recipient gets its message twice.
    await expectFinishedOnce(second, campaignId, recipients);

    // The journey's second step is still an hour away on the imported clock; each hour sends one more step.
    expect(await enrollmentIn(second)).toMatchObject({ status: 'active', current_step: 1 });
    const advanceUntil = async (what: string, reached: (e: { status: string; current_step: number }) => boolean) => {
      expect((await second.call('POST', '/_emulator/clock', { advance_seconds: HOUR })).status).toBe(200);
      return waitUntil(
        async () => {
          const e = await enrollmentIn(second);
          return e !== undefined && reached(e) ? e : undefined;
        },
        what,
        WAIT_MS,
      );
    };
    await advanceUntil('the second step sent', (e) => e.status === 'active' && e.current_step === 2);
    const finished = await advanceUntil('the third step sent', (e) => e.status === 'completed');
    expect(finished.action_ids).toHaveLength(3);
    const stepMessages = (
      (await second.call('GET', '/_emulator/state')).body as StateDocument
    ).collections.messages!.filter((m) => finished.action_ids.includes(m.journey_action_id as string));
    // Each of the three steps sent once: the first before the export, the other two after the import.
    expect(stepMessages.map((m) => m.journey_action_id).sort()).toEqual([...finished.action_ids].sort());
    expect((await second.cli.stop('SIGTERM')).code).toBe(0);

    // Bad directories, each refused in one line naming the file and the field.
    const broken = (name: string, change: (copy: string) => void) => {
      const copy = dir.file(name);
      cpSync(fixture, copy, { recursive: true });
      change(copy);
      return copy;
    };
    const badDelivery = broken('bad-delivery', (copy) =>
      writeFileSync(join(copy, 'deliveries.json'), JSON.stringify([{ id: 7 }])),
    );
    const badVersion = broken('bad-version', (copy) =>
      writeFileSync(join(copy, 'state.json'), JSON.stringify({ ...manifest, format_version: 2 })),
    );
    const missingFile = broken('missing-file', (copy) =>
      writeFileSync(
        join(copy, 'state.json'),
        JSON.stringify({ ...manifest, files: [...manifest.files, 'collections/nothing.json'] }),
      ),
    );
    const notState = dir.file('not-state');
    mkdirSync(notState);
    writeFileSync(join(notState, 'notes.txt'), 'mine');
    const run = (args: string[]) => runCli(['emulator', '--port', '0', ...args], { env, timeoutMs: 180_000 });
    const [delivery, version, missing, refusedExport] = await Promise.all([
      run(['--import', badDelivery]),
      run(['--import', badVersion]),
      run(['--import', missingFile]),
      run(['--export-on-exit', notState]),
    ]);
    expect(delivery.code).toBe(2);
    expect(delivery.stderr).toMatch(/error: Cannot import .*bad-delivery\/deliveries\.json: 0\.id: .+\./);
    expect(version.code).toBe(2);
    expect(version.stderr).toMatch(/error: Cannot import .*bad-version\/state\.json: format_version: .+\./);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain(`No file ${join(missingFile, 'collections/nothing.json')} for --import.`);
    expect(refusedExport.code).toBe(2);
    expect(refusedExport.stderr).toContain('holds files and no state.json');
    expect(existsSync(join(notState, 'notes.txt'))).toBe(true);
  }, 600_000);
});
