/**
 * A thread knowledge files are parsed in (parse-pool.ts runs it): the parsers work under the thread's
 * memory limits and the pool's deadline, so a hostile file costs this thread, never the emulator's event
 * loop (docs/ai-and-knowledge.md, Knowledge files). It parses one file at a time, as the pool asks.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { installAllocationBudget } from './allocation-budget.js';
import type { ParseMessage, ParseRequest, ParseResult, ParseThreadData } from './parse-protocol.js';

// Before any parser is loaded, so every buffer they allocate is charged.
const budget = installAllocationBudget((workerData as ParseThreadData).maxBufferBytes);

const { extractText, loadReaderOf } = await import('./extract-text.js');
const { ApiFailure } = await import('../api-failure.js');

async function parse({ fileName, bytes }: ParseRequest): Promise<ParseResult> {
  budget.reset();
  try {
    const text = await extractText(fileName, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return budget.exceeded ? { kind: 'over-buffers' } : { kind: 'text', text };
  } catch (error) {
    if (budget.exceeded) return { kind: 'over-buffers' };
    if (error instanceof ApiFailure) {
      return { kind: 'refused', code: error.code, message: error.message, details: error.details };
    }
    return { kind: 'failed', message: error instanceof Error ? error.message.slice(0, 200) : 'the parser failed' };
  }
}

const port = parentPort!;
port.on('message', (request: ParseRequest) => {
  void (async () => {
    // Loading a large parser on first use is not parsing: the pool starts the parse's clock after it.
    await loadReaderOf(request.fileName);
    port.postMessage({ kind: 'parsing' } satisfies ParseMessage);
    port.postMessage((await parse(request)) satisfies ParseMessage);
  })();
});
port.postMessage({ kind: 'ready' } satisfies ParseMessage);
