import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src/emulator/api-failure.js';
import { PARSE_BOUNDS } from '../../src/emulator/knowledge-files/parse-bounds.js';
import {
  MAX_WAITING,
  PARSE_CONCURRENCY,
  ParsePool,
  PROCESS_IDLE_MS,
} from '../../src/emulator/knowledge-files/parse-pool.js';
import { pdfBomb, pdfFile } from '../support/knowledge-files.js';
import { childrenOf, commandOf, cpuTicksOf, isRunning } from '../support/process-tree.js';

// The parse bounds of knowledge files (docs/ai-and-knowledge.md): each hostile file is refused with 413 naming
// the bound it broke, and the pool parses the next file as before, in a new process (the broken one is killed
// and gone). Processes are checked as the system sees them, in /proc.
const MIB = 1024 * 1024;
/** util-linux's prlimit, which the test starts a process under with core files allowed. */
const PRLIMIT = '/usr/bin/prlimit';
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** The parse processes `pid` runs (parse-child.ts, forked by parse-process.ts). */
const parseProcessesOf = (pid: number) => childrenOf(pid).filter((child) => commandOf(child).includes('parse-child'));
/** This process's parse processes that were not running at `before` (those of other tests' pools may be). */
const parseProcessesSince = (before: number[]) => parseProcessesOf(process.pid).filter((p) => !before.includes(p));

/** Polls `done` every 100 ms until it holds or `ms` have passed (a cap, never a measure). */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}
const bytes = (text: string | Buffer) => new Blob([typeof text === 'string' ? text : new Uint8Array(text)]);

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
    const before = parseProcessesOf(process.pid);
    const error = await refusal(p.extractText('bomb.pdf', bytes(bomb)));
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(error.details).toEqual([{ path: 'file', bound: 'parsing at most 32 MiB of buffers' }]);
    expect(await p.extractText('fine.pdf', bytes(pdfFile(['Open at nine'])))).toBe('Open at nine');
    // Only the process that parsed the fine file runs: the one that broke the bound was not reused, and is gone.
    expect(parseProcessesSince(before)).toHaveLength(1);
  }, 120_000);

  it('stops a parse past the time bound (Markdown that backtracks without end), then parses the next file', async () => {
    const p = pool({ timeMs: 2_000 });
    const before = parseProcessesOf(process.pid);
    const error = await refusal(p.extractText('slow.md', bytes('*a'.repeat(1_000_000))));
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(error.details).toEqual([{ path: 'file', bound: 'parsing at most 2 seconds' }]);
    expect(await p.extractText('fine.md', bytes('# Hours\n\nOpen at *nine*.'))).toBe('Hours\nOpen at nine.');
    // The process stuck in the parse was killed and has exited before the next file's process started.
    expect(parseProcessesSince(before)).toHaveLength(1);
  }, 120_000);

  it('refuses a file whose parse passes the heap bound (V8 aborts the process), then parses the next file', async () => {
    const p = pool({ timeMs: 120_000 });
    const before = parseProcessesOf(process.pid);
    const error = await refusal(p.extractText('deep.html', bytes('<div>'.repeat(3_000_000) + 'x')));
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(error.details).toEqual([{ path: 'file', bound: `parsing at most ${PARSE_BOUNDS.heapMib} MiB of memory` }]);
    expect(await p.extractText('fine.txt', bytes('still here'))).toBe('still here');
    expect(parseProcessesSince(before)).toHaveLength(1);
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

  it(`reuses its process for the next file, ends it once idle for ${PROCESS_IDLE_MS} ms, and starts one for the file after`, async () => {
    const p = pool({});
    const before = parseProcessesOf(process.pid);
    expect(await p.extractText('one.txt', bytes('first'))).toBe('first');
    const [first, ...others] = parseProcessesSince(before);
    expect(others).toEqual([]);
    expect(await p.extractText('two.txt', bytes('second'))).toBe('second');
    expect(parseProcessesSince(before)).toEqual([first]);
    expect(p.idleProcesses).toBe(1);
    await until(() => p.idleProcesses === 0 && !isRunning(first!), PROCESS_IDLE_MS + 60_000);
    expect(p.idleProcesses).toBe(0);
    // Gone from the system, not only from the pool: everything it held is given back.
    expect(isRunning(first!)).toBe(false);
    expect(await p.extractText('three.txt', bytes('third'))).toBe('third');
    expect(parseProcessesSince(before)).toHaveLength(1);
    expect(parseProcessesSince(before)).not.toContain(first);
  }, 120_000);

  /**
   * Starts parse-and-wait.ts (through `wrapper`, a command and its arguments that exec it, when given) and waits
   * for the one parse process of its pool, which it keeps idle for 10 minutes.
   */
  async function holderWithParser(
    args: string[],
    wrapper: string[] = [],
  ): Promise<{ holder: ChildProcess; parser: number | undefined }> {
    const [command, ...wrapperArgs] = [...wrapper, process.execPath];
    const holder = spawn(command!, [...wrapperArgs, '--import', 'tsx', fixture('parse-and-wait.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: holder.stdout! }), 'line')) as [string];
    expect(line).toBe('Open at nine');
    const parsers = parseProcessesOf(holder.pid!);
    expect(parsers).toHaveLength(1);
    return { holder, parser: parsers[0] };
  }

  /**
   * SIGKILLs the holder of a pool: its parse process must be gone soon after. `stuck`: the parse process is first
   * seen busy in a parse that never yields (a second of CPU beyond what it had used when idle), where only the
   * kernel's parent-death signal can end it.
   */
  async function parseProcessOutlivesHolder(stuck: boolean): Promise<boolean> {
    let started: { holder: ChildProcess; parser: number | undefined } | undefined;
    try {
      started = await holderWithParser(stuck ? ['stuck'] : []);
      const { holder, parser } = started;
      if (stuck) {
        const idleTicks = cpuTicksOf(parser!);
        await until(() => cpuTicksOf(parser!) >= idleTicks + 100, 60_000);
        expect(cpuTicksOf(parser!)).toBeGreaterThanOrEqual(idleTicks + 100);
      }
      holder.kill('SIGKILL');
      await once(holder, 'exit');
      await until(() => !isRunning(parser!), 60_000);
      return isRunning(parser!);
    } finally {
      started?.holder.kill('SIGKILL');
      // An orphan this test made (the check failed) is ended by its pid.
      if (started?.parser !== undefined && isRunning(started.parser)) process.kill(started.parser, 'SIGKILL');
    }
  }

  /** The soft limit on core files of process `pid` (/proc/<pid>/limits), as written there: bytes, or "unlimited". */
  const coreLimitOf = (pid: number) =>
    /^Max core file size\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1];

  it.skipIf(!existsSync(PRLIMIT))(
    'starts parse processes that write no core file, under a process that allows core files',
    async () => {
      // The holder may write core files of up to 1 MiB: its children would inherit that, but for prlimit.
      const { holder, parser } = await holderWithParser([], [PRLIMIT, '--core=1048576', '--']);
      try {
        expect(coreLimitOf(holder.pid!)).toBe('1048576');
        expect(coreLimitOf(parser!)).toBe('0');
      } finally {
        holder.kill('SIGKILL');
      }
    },
    180_000,
  );

  it('leaves no parse process behind when the process that holds the pool is SIGKILLed: an idle one', async () => {
    expect(await parseProcessOutlivesHolder(false)).toBe(false);
  }, 180_000);

  it('leaves no parse process behind when the process that holds the pool is SIGKILLed: one stuck in a parse', async () => {
    expect(await parseProcessOutlivesHolder(true)).toBe(false);
  }, 180_000);

  it('does not keep a process alive: its idle parse process lets a script end without closing anything', async () => {
    // execFile's timeout kills a script that would hang, and the promise then rejects.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture('parse-and-exit.ts')], {
      timeout: 60_000,
    });
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
