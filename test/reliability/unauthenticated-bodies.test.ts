import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { signedDelivery } from '../../src/testing/index.js';
import { SECRET } from '../receiver/harness.js';
import { tempDir } from '../store/temp-dir.js';
import { report, figures } from './figures.js';
import { ReceiverProcess, stopAll } from './receiver-process.js';

const dir = tempDir();
afterEach(async () => {
  await stopAll();
  dir.remove();
});

const MiB = 1024 * 1024;
const BODY = Buffer.alloc(MiB, 'x');

/** POSTs a whole 1 MiB body; the answer's status and code, or `closed` when the connection ended before one. */
function post(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(MiB) } });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { error?: { code: string } };
        resolve(`${res.statusCode} ${body.error?.code}`);
      });
    });
    req.on('error', () => resolve('closed'));
    req.end(BODY);
  });
}

const count = (answers: string[]) =>
  Object.entries(answers.reduce<Record<string, number>>((n, a) => ({ ...n, [a]: (n[a] ?? 0) + 1 }), {}))
    .map(([a, n]) => `${a}×${n}`)
    .join(', ');

it('300 parallel unauthenticated 1 MiB bodies: refused, and the receiver process stays small', async () => {
  const journal: string[] = [];
  const receiver = await ReceiverProcess.start(dir.path('inbox.db'), journal);
  const { headers } = signedDelivery({ secret: SECRET, event: 'message.received' });
  const { rss: before, peak: startupPeak } = receiver.memory();

  // No signature at all: refused from the headers; the bodies are dropped as they arrive, never held.
  const unsigned = await Promise.all(
    Array.from({ length: 300 }, () => post(receiver.url, { ...headers, 'x-service-signature': '' })),
  );
  const afterUnsigned = receiver.memory();
  // A well-formed signature that does not match: read under maxInFlightBytes (32 MiB), then refused.
  const forged = await Promise.all(
    Array.from({ length: 300 }, () =>
      post(receiver.url, { ...headers, 'x-service-signature': `sha256=${'ab'.repeat(32)}` }),
    ),
  );
  const afterForged = receiver.memory();

  const closed = (answers: string[]) => answers.filter((a) => a === 'closed').length;
  report('300 unauthenticated 1 MiB bodies', figures(new Set(), journal), {
    'unsigned answers': count(unsigned),
    'forged answers': count(forged),
    'closed without an answer': closed(unsigned) + closed(forged),
    'RSS before MiB': before.toFixed(0),
    'peak RSS at start MiB': startupPeak.toFixed(0),
    'peak RSS after unsigned MiB': afterUnsigned.peak.toFixed(0),
    'peak RSS after forged MiB': afterForged.peak.toFixed(0),
  });
  await receiver.stop();
  // Every sender hears its refusal: a refused body is drained before its connection closes (endAfterBody), so
  // no sender still uploading is reset. Before that, 1 to 26 of 300 were reset without an answer.
  expect(unsigned).toEqual(Array(300).fill('401 SIGNATURE_MISSING'));
  // A body that waits its turn on a loaded machine past bodyTimeoutMs (8 s) gets 408: an answer too.
  expect(forged.every((a) => /^(401 SIGNATURE_MISMATCH|503 BODIES_IN_FLIGHT|408 BODY_TIMEOUT)$/.test(a))).toBe(true);
  expect(journal.filter((l) => l.startsWith('start '))).toEqual([]);
  // Refused bodies are dropped as they arrive (64 KiB socket reads, garbage at once). Read ones hold at most
  // the in-flight bound (32 MiB), plus the socket reads they came in, which are garbage until V8 collects
  // them. Buffering them all would be 300 MiB. Dropped reads are collected when V8 sees about 64 MiB of new
  // external memory, so when that collection comes depends on the machine's load: 66.7 MiB was seen once
  // at load 3 (a clean clone's CI run), under 64 in the runs before. The bound keeps to a third of buffering.
  expect(afterUnsigned.peak - Math.max(before, startupPeak)).toBeLessThan(100);
  expect(afterForged.peak - Math.max(before, startupPeak)).toBeLessThan(128);
});
