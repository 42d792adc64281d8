/**
 * The child process knowledge files are parsed in (parse-process.ts forks it): the parsers work under the
 * process's memory limits and the pool's deadline, so a hostile file costs this process, never the
 * emulator's event loop, and all it held goes back to the system when it exits (docs/ai-and-knowledge.md,
 * Knowledge files). It parses one file at a time, as the pool asks.
 */
import { installAllocationBudget } from './allocation-budget.js';
import { ParseChildStart, type ParseMessage, type ParseRequest, type ParseResult } from './parse-protocol.js';

// The emulator is gone (its end of the IPC channel closed, even when it was SIGKILLed): so is this process,
// so no parser outlives it. A parse that never yields the event loop (a regex backtracking) would hear it only
// once it ends: on Linux the kernel kills this process then (child-launcher.ts).
process.on('disconnect', () => process.exit(0));

// Before any parser is loaded, so every buffer they allocate is charged.
const budget = installAllocationBudget(ParseChildStart.parse(JSON.parse(process.argv[2] ?? 'null')).maxBufferBytes);

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

const send = (message: ParseMessage) => process.send?.(message);
process.on('message', (request: ParseRequest) => {
  void (async () => {
    // Loading a large parser on first use is not parsing: the pool starts the parse's clock after it.
    await loadReaderOf(request.fileName);
    send({ kind: 'parsing' });
    send(await parse(request));
  })();
});
send({ kind: 'ready' });
