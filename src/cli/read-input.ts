import { readFile, stat } from 'node:fs/promises';
import { CliError } from './cli-error.js';

/** The receiver's default body limit: a body larger than this would not be accepted anyway. */
export const MAX_INPUT_BYTES = 1024 * 1024;

/** Reads a file, or stdin for `-`, as exact bytes (a signature covers bytes, not a re-serialized object). */
export async function readInput(file: string, what: string): Promise<Buffer> {
  if (file === '-') return readStdin(what);
  const info = await stat(file).catch((cause: unknown) => {
    throw new CliError('NOT_FOUND', `Cannot read ${what} \`${file}\`: ${(cause as Error).message}`, { cause });
  });
  if (!info.isFile()) throw new CliError('USAGE', `${what} \`${file}\` is not a file.`);
  if (info.size > MAX_INPUT_BYTES) throw tooLarge(what, info.size);
  return readFile(file);
}

async function readStdin(what: string): Promise<Buffer> {
  if (process.stdin.isTTY) {
    throw new CliError('USAGE', `Expected the ${what} on stdin, but stdin is a terminal.`, {
      hint: 'Pipe it in (`cat body.json | convo-kit sign …`) or pass a file name.',
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw tooLarge(what, size);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(what: string, size: number): CliError {
  return new CliError(
    'USAGE',
    `The ${what} is ${size} bytes; at most ${MAX_INPUT_BYTES} (1 MiB) is accepted, like the receiver's body limit.`,
  );
}

/** Parses JSON input, naming the file and the parser's complaint when it is not JSON. */
export function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new CliError('USAGE', `The ${what} is not valid JSON: ${(cause as Error).message}`, { cause });
  }
}
