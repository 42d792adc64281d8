import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { processEntry } from '../../internal/module-entry.js';
import { killedWithParent, withoutCoreDumps } from '../../internal/child-launcher.js';
import { LOAD_MS, type ParseBounds, SEMI_SPACE_MIB, SOURCE_LOADER_HEAP_MIB } from './parse-bounds.js';
import type { ParseChildStart, ParseMessage, ParseRequest, ParseResult } from './parse-protocol.js';
import { overBound } from './refusals.js';

/**
 * glibc's malloc, tuned for the parse process only. Parsers allocate much natively (buffers, strings), and
 * glibc keeps what they free: an arena per thread, and a dynamic mmap threshold that rises so large blocks
 * come from arenas it does not give back. Measured with the parsers in worker threads (issue 25, point 5,
 * `npm run bench:uploads` on a quiet machine): peak 443 MiB and idle 343 MiB as it is, 400 and 224 MiB with
 * these settings. A child reads them at its start; the emulator's own process keeps its defaults.
 */
const MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

/** The end of the child's stderr kept to tell why it died: bounded, whatever a parser writes there. */
const STDERR_KEPT_BYTES = 4 * 1024;
/** What V8 prints when a heap passes its limit ("Reached heap limit ... JavaScript heap out of memory"). */
const HEAP_LIMIT = /heap limit|out of memory/i;

/**
 * The parse process's environment: the emulator's, without NODE_OPTIONS, whose flags (an inspector port,
 * a heap size, a loader) would change the child's limits or open a port per child, and with MALLOC_ENV.
 * Its Node flags are its own too (`execArgv`), never the emulator's.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...MALLOC_ENV };
  delete env.NODE_OPTIONS;
  return env;
}

/** One parse process, reused while its parses end well; killed the moment one breaks a bound. */
export class ParseProcess {
  private readonly child: ChildProcess;
  readonly ready: Promise<void>;
  /** Settles once the child has exited and its stderr is read to its end. */
  private readonly closed: Promise<void>;
  /** Set once the process failed or was stopped: it takes no more files. */
  dead = false;
  private pending: { resolve(result: ParseResult): void; reject(error: unknown): void } | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** What the running parse's clock, started once its parser is loaded, fails it with. */
  private deadline: { ms: number; error: () => unknown } | undefined;
  /** The end of the child's stderr (latin1, so a character is a byte), and whether it told of the heap limit. */
  private stderrTail = '';
  private heapLimitReached = false;

  constructor(private readonly bounds: ParseBounds) {
    const entry = processEntry(import.meta.url, 'parse-child');
    const heapMib = bounds.heapMib + (entry.fromSources ? SOURCE_LOADER_HEAP_MIB : 0);
    // No parser outlives the emulator, even one stuck in a parse when the emulator is SIGKILLed; none that V8
    // aborts at its heap limit writes a core file.
    const launcher = killedWithParent(withoutCoreDumps());
    this.child = fork(entry.path, [JSON.stringify({ maxBufferBytes: bounds.bufferBytes } satisfies ParseChildStart)], {
      execPath: launcher.execPath,
      execArgv: [
        ...launcher.execArgv,
        ...entry.execArgv,
        `--max-old-space-size=${heapMib}`,
        `--max-semi-space-size=${SEMI_SPACE_MIB}`,
      ],
      env: childEnv(),
      // The V8 serializer: a file's bytes travel as a Uint8Array, not as JSON.
      serialization: 'advanced',
      // A parser's output is not the emulator's (and a hostile file could make it endless): stdout is dropped,
      // stderr read only to classify the child's death.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.closed = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    let started!: { resolve(): void; reject(error: unknown): void };
    this.ready = new Promise<void>((resolve, reject) => (started = { resolve, reject }));
    // An idle process may fail while nobody waits on it; whoever takes it next sees `dead`.
    this.ready.catch(() => undefined);
    this.arm(LOAD_MS, () => new Error('the parse process did not start in time'));
    this.child.on('message', (message: ParseMessage) => {
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
    this.child.stderr!.setEncoding('latin1').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_KEPT_BYTES);
      this.heapLimitReached ||= HEAP_LIMIT.test(this.stderrTail);
    });
    const failed = (error: unknown) => {
      started.reject(error);
      this.fail(error);
    };
    this.child.on('error', failed);
    this.child.once('close', (code, signal) => failed(this.deathOf(code, signal)));
    // An idle process must not keep the emulator's process alive (a parse in flight does: its timer is armed).
    this.child.unref();
    this.child.channel?.unref();
    (this.child.stderr as Socket).unref();
  }

  /**
   * Why the child died on its own: past its heap limit, V8 aborts it (SIGABRT, or a non-zero code) after
   * saying so on stderr, which is the same 413 a worker's ERR_WORKER_OUT_OF_MEMORY was; anything else is a
   * fault of the emulator's.
   */
  private deathOf(code: number | null, signal: NodeJS.Signals | null): unknown {
    if ((signal !== null || code !== 0) && this.heapLimitReached) {
      return overBound(`parsing at most ${this.bounds.heapMib} MiB of memory`, 'The file needs more memory to parse');
    }
    const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
    return new Error(`the parse process stopped (${how}): ${this.stderrTail.slice(-200).trim()}`);
  }

  /** Fails what runs with `error()` unless the process moves on within `ms`. */
  private arm(ms: number, error: () => unknown): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(error()), ms);
  }

  /**
   * Reads `file` and sends its bytes over (the emulator keeps no copy once they are written to the channel),
   * then waits for the answer: the process loads the parser the file's type needs (within LOAD_MS), then
   * parses it within `timeMs`.
   */
  parse(fileName: string, file: Blob, timeMs: number): Promise<ParseResult> {
    return new Promise<ParseResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.deadline = {
        ms: timeMs,
        error: () =>
          overBound(`parsing at most ${timeMs / 1000} seconds`, 'The file was not parsed within the time bound'),
      };
      this.arm(LOAD_MS, () => new Error('the parse process did not load its parser in time'));
      const send = (buffer: ArrayBuffer) =>
        this.child.send({ fileName, bytes: new Uint8Array(buffer) } satisfies ParseRequest, (error: Error | null) => {
          if (error) this.fail(error);
        });
      file.arrayBuffer().then(send, (error: unknown) => this.fail(error));
    });
  }

  /** Fails the parse in progress with `error` and kills the process. */
  private fail(error: unknown): void {
    const pending = this.pending;
    this.pending = undefined;
    void this.stop();
    pending?.reject(error);
  }

  /** Kills the process (SIGKILL: it may be stuck in a parse); settles once it has exited and its memory is given back. */
  stop(): Promise<void> {
    clearTimeout(this.timer);
    this.dead = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.closed;
  }
}
