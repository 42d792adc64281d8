import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { SECRET, testReceiver } from './harness.js';

const CHILD = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let dir: ReturnType<typeof tempDir>;
let child: ChildProcess | undefined;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dir.remove();
});

/** Starts the child and resolves with its port; `running` collects the ids whose handler started. */
function startChild(dbPath: string, running: string[]): Promise<number> {
  child = spawn(process.execPath, ['--import', 'tsx', CHILD, dbPath], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child!.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    createInterface({ input: child!.stdout! }).on('line', (line) => {
      const [word, value] = line.split(' ');
      if (word === 'port') resolve(Number(value));
      if (word === 'running') running.push(value!);
    });
  });
}

it('a process killed with SIGKILL mid-handler loses nothing: a new process on the same file runs every accepted delivery', async () => {
  const dbPath = dir.path('crash.db');
  const running: string[] = [];
  const port = await startChild(dbPath, running);
  const deliveries = Array.from({ length: 6 }, () => signedDelivery({ secret: SECRET, event: 'message.received' }));
  for (const d of deliveries) {
    const res = await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', headers: d.headers, body: d.body });
    expect(res.status).toBe(200);
  }
  while (running.length < 2) await new Promise((r) => setTimeout(r, 20));
  child!.removeAllListeners('exit');
  const exited = new Promise((resolve) => child!.once('exit', (_code, signal) => resolve(signal)));
  child!.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  // The dead process held two leases. The new one sees them expire by running its clock ahead of the lease.
  const handled: string[] = [];
  const receiver = testReceiver(dbPath, { now: () => Date.now() + 10 * 60_000 });
  receiver.on('*', ({ deliveryId }) => void handled.push(deliveryId));
  await receiver.start();
  await receiver.idle();
  expect(handled.sort()).toEqual(deliveries.map((d) => d.deliveryId).sort());
  expect((await receiver.store.list({ status: 'done' })).data).toHaveLength(6);
  for (const id of running) {
    expect((await receiver.store.attempts(id)).map((a) => a.outcome)).toEqual(['lost', 'done']);
  }
  await receiver.close();
}, 30_000);
