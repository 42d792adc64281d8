import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/index.js';
import { recordSigned, startTargetReceiver, tempDir, type TargetReceiver } from './helpers.js';

// util-linux `script` gives the CLI a pseudo-terminal, as a person's shell would.
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const ENTRY = fileURLToPath(new URL('../../src/cli/convo-kit.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ESC = String.fromCharCode(27);
const SECRET = 'whsec_terminal_test_secret_0123456';
const dir = tempDir('terminal');
const db = dir.file('deliveries.db');
const targets: TargetReceiver[] = [];

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI on a pseudo-terminal; stdout and stderr arrive together, as on a screen. */
function onTerminal(args: string[]): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, '--import', 'tsx', ENTRY, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: undefined, TERM: 'xterm' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (screen += text));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    }),
  );
}

beforeAll(async () => {
  const store = createSqliteStore({ path: db });
  for (let i = 0; i < 3; i++) {
    await recordSigned(store, {
      id: `dlv_terminal_${i}`,
      event: 'ticket.closed',
      secret: SECRET,
      receivedAt: Date.now() + i,
    });
  }
  await store.close();
});
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});
afterAll(() => dir.remove());

describe.runIf(hasScript)('on a terminal', () => {
  it('colours the table (and only there: piped output is plain, see deliveries.test.ts)', async () => {
    const { code, screen } = await onTerminal(['deliveries', 'list', '--db', db]);
    expect(code).toBe(0);
    expect(screen).toContain('dlv_terminal_0');
    expect(screen).toContain(`${ESC}[1mRECEIVED`);
  });

  it('shows a progress bar while replaying, then the summary', async () => {
    const target = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('target.db') });
    targets.push(target);
    const { code, screen } = await onTerminal([
      'replay',
      '--db',
      db,
      '--status',
      'pending',
      '--to',
      target.url,
      '--secret',
      SECRET,
    ]);
    expect(code).toBe(0);
    expect(screen).toMatch(/replaying \[[^\]]*\] \d\/3/);
    expect(screen).toMatch(/replayed 3 to \S+: 3 succeeded, 0 failed/);
  });
});
