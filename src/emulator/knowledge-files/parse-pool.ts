import { Worker } from 'node:worker_threads';
import PQueue from 'p-queue';
import { threadEntry } from '../../internal/thread-entry.js';
import { ApiFailure } from '../api-failure.js';
import type { ParseMessage, ParseRequest, ParseResult, ParseThreadData } from './parse-protocol.js';
import { overBound } from './refusals.js';

const MIB = 1024 * 1024;

export interface ParseBounds {
  /** Wall time of one parse, from the file's hand-over to the thread's answer. */
  timeMs: number;
  /** A parse thread's JS heap (objects, strings, parsed documents). */
  heapMib: number;
  /** Byte buffers one parse may allocate in all: they live outside the JS heap (allocation-budget.ts). */
  bufferBytes: number;
}

/**
 * The emulator's own bounds on parsing one knowledge file (docs/ai-and-knowledge.md). The spec bounds the
 * file and its text, not the work between, and a small file can cost without end: a PDF stream that
 * inflates a thousandfold, Markdown that sends its parser into exponential backtracking. With one thread at
 * a time, the emulator stays under 400 MiB through a burst of hostile uploads (issue 25, point 5;
 * bench/knowledge-upload-memory.bench.ts).
 */
export const PARSE_BOUNDS: ParseBounds = { timeMs: 15_000, heapMib: 64, bufferBytes: 32 * MIB };
/**
 * A parse thread's young generation (V8 sizes it from the machine otherwise, up to 48 MiB): short-lived
 * objects of a parse, collected often. Part of the thread's memory beside `heapMib`.
 */
const YOUNG_GENERATION_MIB = 16;
/**
 * Run from TypeScript sources (tests, tsx), a thread loads its parsers through tsx, which alone takes more
 * than 192 MiB of heap to load PDF.js (from the build: under 32 MiB). That is not the file's cost: the
 * thread gets it on top of `heapMib`, so the same file meets the same bound in the tests as in a build.
 */
const SOURCE_LOADER_HEAP_MIB = 256;

/** Files parsed at once (one thread each); more wait, at most MAX_WAITING, so uploads cannot pile up memory. */
export const PARSE_CONCURRENCY = 1;
export const MAX_WAITING = 8;
/** Starting a thread, or loading a parser in it; past it the thread is deemed broken (a fault of the emulator's). */
const LOAD_MS = 60_000;
/**
 * A thread left idle this long is stopped, and the memory its heap and loaded parsers hold goes back to the
 * system: idle threads were kept for good, and held their heaps after a burst of uploads (issue 25, point 5).
 */
export const THREAD_IDLE_MS = 5_000;

/** One parse thread, reused while its parses end well; stopped the moment one breaks a bound. */
class ParseThread {
  private readonly worker: Worker;
  readonly ready: Promise<void>;
  /** Set once the thread failed or was stopped: it takes no more files. */
  dead = false;
  private pending: { resolve(result: ParseResult): void; reject(error: unknown): void } | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** What the running parse's clock, started once its parser is loaded, fails it with. */
  private deadline: { ms: number; error: () => unknown } | undefined;

  constructor(bounds: ParseBounds) {
    const { entry, eval: isEval } = threadEntry(import.meta.url, 'parse-thread');
    this.worker = new Worker(entry, {
      eval: isEval,
      workerData: { maxBufferBytes: bounds.bufferBytes } satisfies ParseThreadData,
      resourceLimits: {
        maxOldGenerationSizeMb: bounds.heapMib + (isEval ? SOURCE_LOADER_HEAP_MIB : 0),
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MIB,
      },
    });
    let started!: { resolve(): void; reject(error: unknown): void };
    this.ready = new Promise<void>((resolve, reject) => (started = { resolve, reject }));
    // An idle thread may fail while nobody waits on it; whoever takes it next sees `dead`.
    this.ready.catch(() => undefined);
    this.arm(LOAD_MS, () => new Error('the parse thread did not start in time'));
    this.worker.on('message', (message: ParseMessage) => {
      if (message.kind === 'ready') {
        clearTimeout(this.timer);
        return started.resolve();
      }
      if (message.kind === 'parsing') return this.deadline && this.arm(this.deadline.ms, this.deadline.error);
      clearTimeout(this.timer);
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve(message);
    });
    const failed = (error: unknown) => {
      started.reject(error);
      this.fail(error);
    };
    this.worker.on('error', failed);
    this.worker.on('exit', (code) => failed(new Error(`the parse thread stopped (exit code ${code})`)));
    // An idle thread must not keep the process alive; after the listeners, since a 'message' listener refs the worker.
    this.worker.unref();
  }

  /** Fails what runs with `error()` unless the thread moves on within `ms`. */
  private arm(ms: number, error: () => unknown): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(error()), ms);
  }

  /**
   * Hands the file over (its bytes are transferred) and waits for the answer: the thread loads the parser
   * the file's type needs (within LOAD_MS), then parses it within `timeMs`.
   */
  parse(request: ParseRequest, timeMs: number): Promise<ParseResult> {
    return new Promise<ParseResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.deadline = {
        ms: timeMs,
        error: () =>
          overBound(`parsing at most ${timeMs / 1000} seconds`, 'The file was not parsed within the time bound'),
      };
      this.arm(LOAD_MS, () => new Error('the parse thread did not load its parser in time'));
      this.worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    });
  }

  /** Fails the parse in progress with `error` and stops the thread. */
  private fail(error: unknown): void {
    const pending = this.pending;
    this.pending = undefined;
    void this.stop();
    pending?.reject(error);
  }

  /** Stops the thread; settles once it has exited and its heap is given back. */
  stop(): Promise<void> {
    clearTimeout(this.timer);
    this.dead = true;
    return this.worker.terminate().then(() => undefined);
  }
}

/** A small pool of parse threads under one set of bounds. */
export class ParsePool {
  private readonly queue = new PQueue({ concurrency: PARSE_CONCURRENCY });
  private readonly idle: { thread: ParseThread; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly bounds: ParseBounds = PARSE_BOUNDS) {}

  /**
   * The text of an uploaded knowledge file (extractText), parsed in a thread under the bounds: past the
   * time, the heap or the buffers, the thread is stopped and the upload refused (413 naming the bound).
   * The emulator's event loop never waits on a parser. `bytes` is handed to the thread (empty afterwards).
   */
  extractText(fileName: string, bytes: Uint8Array): Promise<string> {
    if (this.queue.size >= MAX_WAITING) {
      return Promise.reject(
        new ApiFailure(
          'SERVICE_UNAVAILABLE',
          `${PARSE_CONCURRENCY + MAX_WAITING} knowledge files are being parsed or waiting; retry shortly`,
          { headers: { 'Retry-After': '1' } },
        ),
      );
    }
    return new Promise<string>((resolve, reject) => {
      void this.queue.add(() => this.run({ fileName, bytes }, { resolve, reject }));
    });
  }

  private takeThread(): ParseThread {
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      clearTimeout(idle.timer);
      if (!idle.thread.dead) return idle.thread;
    }
    return new ParseThread(this.bounds);
  }

  /** Keeps `thread` for the next file, for THREAD_IDLE_MS. */
  private park(thread: ParseThread): void {
    const idle = {
      thread,
      timer: setTimeout(() => {
        this.idle.splice(this.idle.indexOf(idle), 1);
        void thread.stop();
      }, THREAD_IDLE_MS).unref(),
    };
    this.idle.push(idle);
  }

  /**
   * Parses `request` on a thread and settles `upload` as soon as the answer is known. The queue's slot is
   * held until a stopped thread has exited: a thread that broke a bound is given back whole before the next
   * one starts, or a burst of hostile files held the heaps of the dying threads beside the new ones
   * (issue 25, point 5).
   */
  private async run(
    request: ParseRequest,
    upload: { resolve(text: string): void; reject(error: unknown): void },
  ): Promise<void> {
    const thread = this.takeThread();
    let reusable = false;
    try {
      await thread.ready;
      const result = await thread.parse(request, this.bounds.timeMs).catch((error: unknown) => {
        throw (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? overBound(`parsing at most ${this.bounds.heapMib} MiB of memory`, 'The file needs more memory to parse')
          : error;
      });
      // A thread whose parse ran out of buffers may hold a parser in a broken state: it is not reused.
      reusable = result.kind === 'text' || result.kind === 'refused';
      upload.resolve(this.textOf(result));
    } catch (error) {
      upload.reject(error);
    } finally {
      if (reusable && !thread.dead && this.idle.length < PARSE_CONCURRENCY) this.park(thread);
      else await thread.stop();
    }
  }

  /** Threads kept for the next file (tests watch them go). */
  get idleThreads(): number {
    return this.idle.length;
  }

  /** Stops the idle threads (tests; a running parse ends with its own bound). */
  close(): void {
    for (const { thread, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      void thread.stop();
    }
  }

  private textOf(result: ParseResult): string {
    switch (result.kind) {
      case 'text':
        return result.text;
      case 'refused':
        throw new ApiFailure(result.code, result.message, { details: result.details });
      case 'over-buffers':
        throw overBound(
          `parsing at most ${this.bounds.bufferBytes / MIB} MiB of buffers`,
          'The file expands past the memory bound as it is parsed',
        );
      case 'failed':
        throw new Error(`the knowledge file parser failed: ${result.message}`);
    }
  }
}

const shared = new ParsePool();

/** {@link ParsePool.extractText} on the process's pool, under PARSE_BOUNDS. */
export function extractTextInThread(fileName: string, bytes: Uint8Array): Promise<string> {
  return shared.extractText(fileName, bytes);
}
