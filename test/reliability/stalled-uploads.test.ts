import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  UPLOAD_BODY_TIMEOUT_MS,
  UPLOADS_IN_FLIGHT_BYTES,
  uploadBytesInFlight,
} from '../../src/emulator/platform/read-multipart-body.js';
import { startE2e, type E2e } from '../e2e/harness.js';
import { stalledUpload } from '../support/knowledge-files.js';
import { printFigures } from './figures.js';

const MIB = 1024 * 1024;
/**
 * The probe's campaign (seven uploads that sent 9.1 MiB of a 10 MiB file and stopped, 63.7 MiB of a 64 MiB
 * budget held), fitted to today's budget: as few stalled uploads of at most 9.1 MiB each as leave 0.3 MiB of it.
 */
const STALLED = Math.ceil(UPLOADS_IN_FLIGHT_BYTES / (9.1 * MIB));
const SENT_BYTES = Math.floor((UPLOADS_IN_FLIGHT_BYTES - 0.3 * MIB) / STALLED);
/** How often a well-behaved client tries its own small upload meanwhile. */
const TRY_EVERY_MS = 250;
/** 1 MiB of JSON, mostly blanks: one short line of text once parsed. */
const DURING = `{"hours": "We open at nine."}${' '.repeat(MIB - 29)}`;

let t: E2e;
beforeAll(async () => {
  t = await startE2e();
});
afterAll(() => t.close());

it(`${STALLED} stalled uploads of ${(SENT_BYTES / MIB).toFixed(1)} MiB: the budget comes back within the body timeout, and uploads go through again`, async () => {
  const { group_id } = await t.client.groups.create({ name: 'Stalls' });
  const url = `${t.origin}/v1/channels/groups/${group_id}/knowledge/files`;
  const stalled = Array.from({ length: STALLED }, () => stalledUpload(url, t.emulator.adminKey, SENT_BYTES, 10 * MIB));
  const heldFrom = performance.now();
  const answeredAfterMs = stalled.map((s) => s.answer.then(() => performance.now() - heldFrom));
  const deadline = Date.now() + 30_000;
  while (uploadBytesInFlight() < STALLED * SENT_BYTES && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const held = uploadBytesInFlight();
  const filledAfterMs = performance.now() - heldFrom;

  // Another client uploads a 1 MiB file (more than the 0.3 MiB the stalled ones leave) until one is stored.
  let busy = 0;
  let storedAfterMs: number | undefined;
  while (storedAfterMs === undefined && performance.now() - heldFrom < UPLOAD_BODY_TIMEOUT_MS + 60_000) {
    const form = new FormData();
    form.append('type', 'general');
    form.append('title', 'during');
    form.append('file', new File([DURING], 'during.json'));
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.emulator.adminKey}` },
      body: form,
    });
    await res.arrayBuffer();
    if (res.status === 201) storedAfterMs = performance.now() - heldFrom;
    else if (res.status === 503) busy++;
    else throw new Error(`an upload beside the stalled ones answered ${res.status}`);
    if (storedAfterMs === undefined) await new Promise((resolve) => setTimeout(resolve, TRY_EVERY_MS));
  }
  const answers = await Promise.all(stalled.map((s) => s.answer));
  const freedAfterMs = Math.max(...(await Promise.all(answeredAfterMs)));
  for (const s of stalled) s.stop();

  printFigures(`${STALLED} stalled ${(SENT_BYTES / MIB).toFixed(1)} MiB uploads`, {
    'held MiB': (held / MIB).toFixed(1),
    'all held after s': (filledAfterMs / 1000).toFixed(1),
    'budget MiB': UPLOADS_IN_FLIGHT_BYTES / MIB,
    '503 answers meanwhile': busy,
    'next upload stored after s': storedAfterMs === undefined ? 'never' : (storedAfterMs / 1000).toFixed(1),
    'stalled answers': [...new Set(answers.map((a) => a.status))].join(' '),
    'all answered after s': (freedAfterMs / 1000).toFixed(1),
    'body timeout s': UPLOAD_BODY_TIMEOUT_MS / 1000,
  });
  expect(held).toBeGreaterThanOrEqual(STALLED * SENT_BYTES);
  expect(answers.every((a) => a.status === 408 && a.body.includes('BODY_TIMEOUT'))).toBe(true);
  expect(storedAfterMs).toBeDefined();
  expect(uploadBytesInFlight()).toBe(0);
});
