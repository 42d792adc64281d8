import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, startEmulator } from '../../src/emulator/index.js';
import { cleanup, emulator, silent } from './platform-harness.js';

afterEach(cleanup);

describe('startEmulator', () => {
  it('listens, prints its base URL and both generated keys, and answers with them over real HTTP', async () => {
    let printed = '';
    const started = await startEmulator({
      port: 0,
      logger: silent,
      seed: 2,
      output: { write: (text: string) => (printed += text) },
    });
    try {
      expect(started.adminKey).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
      expect(started.testKey).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
      expect(printed).toContain(started.url);
      expect(printed).toContain(started.adminKey);
      expect(printed).toContain(started.testKey);
      const res = await fetch(`${started.url}/v1/tickets?limit=1`, {
        headers: { authorization: `Bearer ${started.adminKey}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    } finally {
      await started.close();
    }
  });

  it('prints only the keys it generated, never one it was given', async () => {
    let printed = '';
    const adminKey = `svc_live_${'g'.repeat(32)}`;
    const started = await startEmulator({
      port: 0,
      logger: silent,
      seed: 0,
      adminKey,
      output: { write: (text: string) => (printed += text) },
    });
    try {
      expect(printed).not.toContain(adminKey);
      expect(printed).toContain('admin key: (the one given)');
      expect(printed).toContain(started.testKey);
    } finally {
      await started.close();
    }
  });

  it('uses the keys it is given', async () => {
    const adminKey = `svc_live_${'a'.repeat(32)}`;
    const testKey = `svc_test_${'b'.repeat(32)}`;
    const e = await emulator({ adminKey, testKey, seed: 0 });
    expect(e.adminKey).toBe(adminKey);
    // Closed with the emulator.
    const { url } = await e.listen();
    expect((await fetch(`${url}/api/v1/keys`, { headers: { authorization: `Bearer ${adminKey}` } })).status).toBe(200);
  });

  it.each([
    ['a test key as admin key', { adminKey: `svc_test_${'a'.repeat(32)}` }, /adminKey/],
    ['a short test key', { testKey: 'svc_test_short' }, /testKey/],
    ['an unknown plan', { plan: 'platinum' }, /`plan`.*platinum/],
    ['a negative retry delay', { retryDelaysSeconds: [-1] }, /retryDelaysSeconds/],
  ])('refuses %s, naming the option', async (_name, options, message) => {
    await expect(createEmulator({ logger: silent, ...(options as object) })).rejects.toThrow(message);
  });
});
