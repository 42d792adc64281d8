import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type DeliveryStore } from '../../src/store/index.js';
import { tempDir } from './temp-dir.js';

const dir = tempDir();
let store: DeliveryStore | undefined;
afterEach(async () => {
  await store?.close();
});
afterAll(() => dir.remove());

const size = (file: string) => statSync(file).size;

describe('WAL checkpoints', () => {
  it('move the WAL into the database file off the event loop, well before the writer would checkpoint itself', async () => {
    const path = dir.path('deliveries.db');
    store = createSqliteStore({ path });
    const before = size(path);
    // About 300 pages of WAL: far below the writer's safety-net threshold, so only the checkpointer moves it.
    const body = Buffer.alloc(1024, 'x');
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        store!.record({
          id: `dlv_${i}`,
          eventId: `evt_${i}`,
          event: 'message.received',
          body,
          signature: 'sha256=' + 'a'.repeat(64),
          timestamp: '1',
          receivedAt: i,
        }),
      ),
    );
    const deadline = Date.now() + 10_000;
    while (size(path) <= before + 100 * 1024 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(size(path)).toBeGreaterThan(before + 100 * 1024);
  });

  it('lets a script await close() to the end: the checkpoint thread holds the process open only while closing', async () => {
    const script = fileURLToPath(new URL('./fixtures/close-and-exit.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, dir.path('script.db')], {
      timeout: 20_000,
    });
    expect(stdout.trim()).toBe('closed');
  });

  it('close() still resolves when the checkpoint thread died first (its database removed before it could open it)', async () => {
    const sub = dir.path('gone');
    mkdirSync(sub);
    const opened = createSqliteStore({ path: `${sub}/deliveries.db` });
    // The thread starts after this turn: the file is gone by the time it opens its connection.
    rmSync(sub, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(opened.close()).resolves.toBeUndefined();
  });
});
