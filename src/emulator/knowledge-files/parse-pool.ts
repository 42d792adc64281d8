import PQueue from 'p-queue';
import { ApiFailure } from '../api-failure.js';
import { MIB, PARSE_BOUNDS, type ParseBounds } from './parse-bounds.js';
import { ParseProcess } from './parse-process.js';
import type { ParseResult } from './parse-protocol.js';
import { overBound } from './refusals.js';

/** Files parsed at once (one process each); more wait, at most MAX_WAITING, so uploads cannot pile up memory. */
export const PARSE_CONCURRENCY = 1;
export const MAX_WAITING = 8;
/**
 * A parse process left idle this long is stopped, and all it held goes back to the system: its heap, its
 * loaded parsers, and the native memory the C allocator keeps, which a stopped worker thread left in the
 * emulator's process (issue 25, point 5).
 */
export const PROCESS_IDLE_MS = 5_000;

/** A small pool of parse processes under one set of bounds. */
export class ParsePool {
  private readonly queue = new PQueue({ concurrency: PARSE_CONCURRENCY });
  private readonly idle: { parser: ParseProcess; timer: NodeJS.Timeout }[] = [];

  /** `idleMs`: how long an idle process is kept (PROCESS_IDLE_MS; a test keeps one for as long as it needs). */
  constructor(
    private readonly bounds: ParseBounds = PARSE_BOUNDS,
    private readonly idleMs = PROCESS_IDLE_MS,
  ) {}

  /**
   * The text of an uploaded knowledge file (extractText), parsed in a child process under the bounds: past
   * the time, the heap or the buffers, the process is killed and the upload refused (413 naming the bound).
   * The emulator's event loop never waits on a parser. `file` is read only when its parse starts, so a file
   * waiting its turn holds its bytes once, as the upload's Blob, not beside a copy of them.
   */
  extractText(fileName: string, file: Blob): Promise<string> {
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
      void this.queue.add(() => this.run({ fileName, file }, { resolve, reject }));
    });
  }

  private takeProcess(): ParseProcess {
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      clearTimeout(idle.timer);
      if (!idle.parser.dead) return idle.parser;
    }
    return new ParseProcess(this.bounds);
  }

  /** Keeps `parser` for the next file, for `idleMs`. */
  private park(parser: ParseProcess): void {
    const idle = {
      parser,
      timer: setTimeout(() => {
        this.idle.splice(this.idle.indexOf(idle), 1);
        void parser.stop();
      }, this.idleMs).unref(),
    };
    this.idle.push(idle);
  }

  /**
   * Parses `job` in a process and settles `upload` as soon as the answer is known. The queue's slot is
   * held until a killed process has exited: a process that broke a bound is given back whole before the next
   * one starts, or a burst of hostile files held the memory of the dying processes beside the new ones
   * (issue 25, point 5).
   */
  private async run(
    job: { fileName: string; file: Blob },
    upload: { resolve(text: string): void; reject(error: unknown): void },
  ): Promise<void> {
    const parser = this.takeProcess();
    let reusable = false;
    try {
      await parser.ready;
      const result = await parser.parse(job.fileName, job.file, this.bounds.timeMs);
      // A process whose parse ran out of buffers may hold a parser in a broken state: it is not reused.
      reusable = result.kind === 'text' || result.kind === 'refused';
      upload.resolve(this.textOf(result));
    } catch (error) {
      upload.reject(error);
    } finally {
      if (reusable && !parser.dead && this.idle.length < PARSE_CONCURRENCY) this.park(parser);
      else await parser.stop();
    }
  }

  /** Processes kept for the next file (tests watch them go). */
  get idleProcesses(): number {
    return this.idle.length;
  }

  /** Stops the idle processes (tests; a running parse ends with its own bound). */
  close(): void {
    for (const { parser, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      void parser.stop();
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
export function extractTextInChildProcess(fileName: string, file: Blob): Promise<string> {
  return shared.extractText(fileName, file);
}
