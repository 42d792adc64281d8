import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from '../support/run-command.js';

describe('npm start with a bad PORT or EMULATOR_PORT (README, "What npm start shows")', () => {
  it('names each bad variable on one line and exits 1, with no stack trace', async () => {
    const result = await run('npm', ['start', '--silent'], {
      cwd: REPO_ROOT,
      env: { PORT: 'abc', EMULATOR_PORT: '-1', SAMPLE_CRM_DATA: undefined },
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'PORT: must be a whole number from 0 to 65535, got "abc"; EMULATOR_PORT: must be a whole number from 0 to 65535, got "-1"',
    );
    expect(result.stdout).not.toContain('CRM page:');
  }, 90_000);
});
