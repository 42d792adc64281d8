/** The unit the knowledge-file bounds are written in. */
export const MIB = 1024 * 1024;

export interface ParseBounds {
  /** Wall time of one parse, from the file's hand-over to the parse process's answer. */
  timeMs: number;
  /** A parse process's JS heap (objects, strings, parsed documents). */
  heapMib: number;
  /** Byte buffers one parse may allocate in all: they live outside the JS heap (allocation-budget.ts). */
  bufferBytes: number;
}

/**
 * The emulator's own bounds on parsing one knowledge file (docs/ai-and-knowledge.md). The spec bounds the
 * file and its text, not the work between, and a small file can cost without end: a PDF stream that
 * inflates a thousandfold, Markdown that sends its parser into exponential backtracking. With one parse
 * process at a time, the emulator stays under 400 MiB through a burst of hostile uploads (issue 25, point 5;
 * bench/knowledge-upload-memory.bench.ts).
 */
export const PARSE_BOUNDS: ParseBounds = { timeMs: 15_000, heapMib: 64, bufferBytes: 32 * MIB };

/**
 * A parse process's young generation: short-lived objects of a parse, collected often. Part of the
 * process's memory beside `heapMib`. V8 sizes it from the machine otherwise (up to 48 MiB).
 */
export const YOUNG_GENERATION_MIB = 16;

/**
 * The semi-space size (`--max-semi-space-size`) that keeps the young generation within the bound above. V8's
 * young generation is three semi-spaces (two, and a new large-object space as big as one), and V8 rounds a
 * semi-space up to a power of two: so the largest power of two whose three fit, 4 MiB, a 12 MiB young
 * generation (measured: heap limit 64 + 12 MiB). A worker's `maxYoungGenerationSizeMb: 16`, when files were
 * parsed in threads, was rounded up to 8 MiB semi-spaces, 24 MiB, past the bound; the parse process's peak is
 * 15 MiB lower with 4 (bench/knowledge-upload-memory.bench.ts, issue 25, point 5).
 */
export const SEMI_SPACE_MIB = 2 ** Math.floor(Math.log2(YOUNG_GENERATION_MIB / 3));

/**
 * Run from TypeScript sources (tests, tsx), a parse process loads its parsers through tsx, which alone takes
 * more than 192 MiB of heap to load PDF.js (from the build: under 32 MiB). That is not the file's cost: the
 * process gets it on top of `heapMib`, so the same file meets the same bound in the tests as in a build.
 */
export const SOURCE_LOADER_HEAP_MIB = 256;

/** Starting a parse process, or loading a parser in it; past it the process is deemed broken (a fault of the emulator's). */
export const LOAD_MS = 60_000;
