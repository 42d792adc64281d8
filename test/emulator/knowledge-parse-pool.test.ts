import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src/emulator/api-failure.js';
import {
  MAX_WAITING,
  PARSE_BOUNDS,
  PARSE_CONCURRENCY,
  ParsePool,
  THREAD_IDLE_MS,
} from '../../src/emulator/knowledge-files/parse-pool.js';
import { pdfBomb, pdfFile } from '../support/knowledge-files.js';

// The parse bounds of knowledge files (docs/ai-and-knowledge.md): each hostile file is refused with 413 naming
// the bound it broke, and the pool parses the next file as before (a broken thread is replaced).
const MIB = 1024 * 1024;
const bytes = (text: string | Buffer) => new Uint8Array(typeof text === 'string' ? Buffer.from(text) : text);

async function refusal(promise: Promise<unknown>): Promise<ApiFailure> {
  const error = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof ApiFailure)) throw error;
  return error;
}

const pools: ParsePool[] = [];
const pool = (bounds: Partial<typeof PARSE_BOUNDS>) => {
  const p = new ParsePool({ ...PARSE_BOUNDS, ...bounds });
  pools.push(p);
  return p;
};
afterAll(() => pools.forEach((p) => p.close()));

describe('the parse pool', () => {
  it('refuses a PDF whose stream inflates past the buffer bound, then parses the next file', async () => {
    const p = pool({ bufferBytes: 32 * MIB, timeMs: 120_000 });
    const bomb = await pdfBomb(256 * MIB, ['Hello bomb']);
    expect(bomb.length).toBeLessThan(MIB);
    const error = await refusal(p.extractText('bomb.pdf', bytes(bomb)));
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(error.details).toEqual([{ path: 'file', bound: 'parsing at most 32 MiB of buffers' }]);
    expect(await p.extractText('fine.pdf', bytes(pdfFile(['Open at nine'])))).toBe('Open at nine');
  }, 120_000);

  it('stops a parse past the time bound (Markdown that backtracks without end), then parses the next file', async () => {
    const p = pool({ timeMs: 2_000 });
    const error = await refusal(p.extractText('slow.md', bytes('*a'.repeat(1_000_000))));
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(error.details).toEqual([{ path: 'file', bound: 'parsing at most 2 seconds' }]);
    expect(await p.extractText('fine.md', bytes('# Hours\n\nOpen at *nine*.'))).toBe('Hours\nOpen at nine.');
  }, 120_000);

  it('stops a parse past the heap bound', async () => {
    const p = pool({ timeMs: 120_000 });
    const error = await refusal(p.extractText('deep.html', bytes('<div>'.repeat(3_000_000) + 'x')));
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(error.details).toEqual([{ path: 'file', bound: `parsing at most ${PARSE_BOUNDS.heapMib} MiB of memory` }]);
    expect(await p.extractText('fine.txt', bytes('still here'))).toBe('still here');
  }, 120_000);

  it(`refuses a file with 503 and Retry-After while ${PARSE_CONCURRENCY} parse and ${MAX_WAITING} wait, and takes files again after`, async () => {
    const p = pool({});
    // Asked at once: PARSE_CONCURRENCY start, MAX_WAITING wait, and the next one finds the queue full.
    const taken = PARSE_CONCURRENCY + MAX_WAITING;
    const busy = Array.from({ length: taken }, (_, i) => p.extractText(`${i}.txt`, bytes(`file ${i}`)));
    const error = await refusal(p.extractText('one-more.txt', bytes('hello')));
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '1' } });
    expect(await Promise.all(busy)).toEqual(Array.from({ length: taken }, (_, i) => `file ${i}`));
    expect(await p.extractText('one-more.txt', bytes('hello'))).toBe('hello');
  }, 120_000);

  it(`stops a thread left idle for ${THREAD_IDLE_MS} ms, giving its memory back, and starts one for the next file`, async () => {
    const p = pool({});
    expect(await p.extractText('one.txt', bytes('first'))).toBe('first');
    expect(p.idleThreads).toBe(1);
    const deadline = Date.now() + THREAD_IDLE_MS + 60_000;
    while (p.idleThreads > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(p.idleThreads).toBe(0);
    expect(await p.extractText('two.txt', bytes('second'))).toBe('second');
  }, 120_000);

  it('does not keep a process alive: its idle thread lets a script end without closing anything', async () => {
    const script = fileURLToPath(new URL('./fixtures/parse-and-exit.ts', import.meta.url));
    // execFile's timeout kills a script that would hang, and the promise then rejects.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { timeout: 60_000 });
    expect(stdout).toBe('Open at nine');
  }, 90_000);

  it('keeps the refusals of the parsers themselves (415, and 413 for the text bound)', async () => {
    const p = pool({});
    expect(await refusal(p.extractText('x.pdf', bytes('not a pdf')))).toMatchObject({
      status: 415,
      details: [{ path: 'file', type: 'PDF' }],
    });
    expect(await refusal(p.extractText('long.txt', bytes('x'.repeat(100_001))))).toMatchObject({ status: 413 });
  }, 120_000);
});
