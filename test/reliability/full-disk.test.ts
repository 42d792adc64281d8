import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { SECRET } from '../receiver/harness.js';
import { tempDir } from '../store/temp-dir.js';
import { eventIdOf, report, settle } from './figures.js';
import { ReceiverProcess, stopAll } from './receiver-process.js';
import { pool, send } from './send.js';

const dir = tempDir();
const disk = dir.path('disk');
let mounted = false;
afterEach(async () => {
  await stopAll();
  if (mounted) execFileSync('umount', [disk]);
  dir.remove();
});

/** A 16 MiB tmpfs of our own, so filling it harms nothing else; null when the machine does not allow it. */
function mountSmallDisk(): string | null {
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', disk], { stdio: 'pipe' });
    mounted = true;
    return null;
  } catch (error) {
    const why = String((error as { stderr?: Buffer }).stderr ?? error).trim();
    return `mounting a tmpfs needs root (or CAP_SYS_ADMIN): ${why}`;
  }
}

const TOTAL = 300;
const RECOVERY_MS = 60_000;

it('a full disk: deliveries get 503 while it is full, and once there is room every one is acked and handled', async (ctx) => {
  const cannot = mountSmallDisk();
  if (cannot) {
    process.stdout.write(`[reliability] full disk: skipped, ${cannot}\n`);
    ctx.skip();
  }
  const journal: string[] = [];
  const receiver = await ReceiverProcess.start(`${disk}/inbox.db`, journal, { HANDLER_MS: '5' });
  // Leave about 2 MiB: room for the first ~100 deliveries of 16 KiB.
  const filler = `${disk}/filler`;
  writeFileSync(filler, Buffer.alloc(14 * 1024 * 1024 - 512 * 1024));
  const deliveries = Array.from({ length: TOTAL }, () =>
    signedDelivery({ secret: SECRET, event: 'message.received', overrides: { data: { content: 'x'.repeat(16_000) } } }),
  );
  const acked = new Set<string>();
  const refused: SignedDelivery[] = [];
  const answers = new Map<number, number>();
  await pool(deliveries, 8, async (delivery) => {
    const status = await send(receiver.url, delivery);
    answers.set(status, (answers.get(status) ?? 0) + 1);
    if (status === 200) acked.add(eventIdOf(delivery));
    else refused.push(delivery);
  });
  const whileFull = acked.size;

  // Room again: the service's retries of the refused ones are stored, by the same process. Bounded,
  // so a store that does not recover fails here saying so rather than hanging the suite.
  rmSync(filler);
  const deadline = Date.now() + RECOVERY_MS;
  for (const delivery of refused) {
    while (Date.now() < deadline && (await send(receiver.url, delivery)) !== 200)
      await new Promise((r) => setTimeout(r, 50));
    if (Date.now() < deadline) acked.add(eventIdOf(delivery));
  }
  const f = await settle(acked, journal);
  const mib = (file: string) => (statSync(`${disk}/${file}`).size / 1024 / 1024).toFixed(1);
  report('full disk (16 MiB tmpfs)', f, {
    'acked before it was full': whileFull,
    'refused while full': refused.length,
    answers: [...answers].map(([s, n]) => `${s}×${n}`).join(' '),
    'not acked within 60 s of the room': TOTAL - f.acked,
    'database and WAL MiB': `${mib('inbox.db')} + ${mib('inbox.db-wal')}`,
  });
  await receiver.stop();
  expect(refused.length).toBeGreaterThan(0);
  expect([...answers.keys()].sort()).toEqual([200, 503]);
  expect(TOTAL - f.acked, 'deliveries the store still refused 60 s after the room was made').toBe(0);
  expect(f.lost).toBe(0);
  expect(f.runTwice).toBe(0);
});
