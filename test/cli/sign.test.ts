import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { verify } from '../../src/signature/index.js';
import { killAllCli, runCli } from './run-cli.js';

// The test vector of docs/webhook-deliveries.md.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const TIMESTAMP = 1763683200;
const BODY =
  '{"id":"evt_1","event":"message.received","created_at":"2025-11-21T00:00:00Z","data":{"id":"msg_1","content":"hi"}}';
const SIGNATURE = 'sha256=0789d92d9e958646a38b477aab73b28e454d9766c56d7379ebd60063581f0d5e';

const dir = mkdtempSync(join(tmpdir(), 'convo-kit-sign-'));
const bodyFile = join(dir, 'body.json');
writeFileSync(bodyFile, BODY);

function parseHeaderLines(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => {
        const at = line.indexOf(': ');
        return [line.slice(0, at), line.slice(at + 2)];
      }),
  );
}

afterEach(killAllCli);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('convo-kit sign', () => {
  it('prints the test-vector signature of docs/webhook-deliveries.md for a file', async () => {
    const result = await runCli([
      'sign',
      '--secret',
      SECRET,
      '--timestamp',
      String(TIMESTAMP),
      '--delivery-id',
      'dlv_fixed',
      bodyFile,
    ]);
    expect(result.code).toBe(0);
    expect(parseHeaderLines(result.stdout)).toEqual({
      'Content-Type': 'application/json',
      'X-Service-Signature': SIGNATURE,
      'X-Service-Timestamp': String(TIMESTAMP),
      'X-Service-Delivery': 'dlv_fixed',
      'X-Service-Event': 'message.received',
    });
  });

  it('signs stdin with the secret from the environment, and verify() accepts the headers', async () => {
    const result = await runCli(['sign', '--json', '-'], { input: BODY, env: { CONVO_KIT_WEBHOOK_SECRET: SECRET } });
    expect(result.code).toBe(0);
    const headers = JSON.parse(result.stdout) as Record<string, string>;
    expect(headers['x-service-delivery']).toMatch(/^dlv_[A-Za-z0-9_-]{24}$/);
    await expect(
      verify({
        body: BODY,
        signature: headers['x-service-signature'],
        timestamp: headers['x-service-timestamp'],
        secrets: SECRET,
      }),
    ).resolves.toMatchObject({ secretIndex: 0 });
    await expect(
      verify({
        body: BODY + ' ',
        signature: headers['x-service-signature'],
        timestamp: headers['x-service-timestamp'],
        secrets: SECRET,
      }),
    ).rejects.toMatchObject({ code: 'SIGNATURE_MISMATCH' });
  });

  it('refuses to run without a secret, saying how to give one (exit 2)', async () => {
    const result = await runCli(['sign', bodyFile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No webhook secret given/);
    expect(result.stderr).toMatch(/CONVO_KIT_WEBHOOK_SECRET/);
    expect(result.stdout).toBe('');
  });

  it('refuses a timestamp that is not Unix seconds (exit 2)', async () => {
    const result = await runCli(['sign', '--secret', SECRET, '--timestamp', '2025-11-21', bodyFile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--timestamp.*Expected Unix time in whole seconds/);
  });

  it('names a missing body file (exit 3)', async () => {
    const result = await runCli(['sign', '--secret', SECRET, join(dir, 'nope.json')]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/Cannot read body .*nope\.json/);
  });

  it('warns when the secret lacks its whsec_ prefix, without printing the secret', async () => {
    const result = await runCli(['sign', '--secret', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', bodyFile]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/does not start with `whsec_`/);
    expect(result.stderr).not.toContain('MfKQ9r8G');
  });

  it('warns the same in trigger, which signs with the secret too', async () => {
    // Port 9 (discard) answers nothing here: the send fails after the secret was read.
    const result = await runCli([
      'trigger',
      'ticket.created',
      '--to',
      'http://127.0.0.1:9/webhooks',
      '--secret',
      'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    ]);
    expect(result.stderr).toMatch(/does not start with `whsec_`/);
    expect(result.stderr).not.toContain('MfKQ9r8G');
  });
});
