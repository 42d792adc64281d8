import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../store/temp-dir.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HIDE = fileURLToPath(new URL('../../bench/hide-otel-api.ts', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/without-otel.ts', import.meta.url));

const dir = tempDir();
afterEach(() => dir.remove());

// @opentelemetry/api is an optional peer dependency: an application without it loses nothing else.
it('receives, handles, reports health and calls the service where @opentelemetry/api is not installed', async () => {
  const service = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: 'refused by this test' } }));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', HIDE, CHILD, dir.path('inbox.db'), baseUrl],
      { cwd: ROOT, timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual({
      apiLoads: false,
      status: 200,
      handled: 1,
      health: 'ok',
      client: 'error 400',
    });
  } finally {
    service.close();
  }
  // A child process through tsx: seconds alone, more under the suite's load.
}, 90_000);
