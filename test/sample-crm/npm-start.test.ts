import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../starter/run-create-starter.js';

const START_TIMEOUT_MS = 90_000;

let child: ChildProcess;
let output = '';
let crmUrl = '';
let dataDir = '';
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

/** Resolves with the first match of `pattern` in the output so far or to come; fails with the output if the process ends first. */
function waitForOutput(pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = output.match(pattern);
      if (match) {
        child.stdout?.off('data', check);
        resolve(match);
      }
    };
    child.stdout?.on('data', check);
    void exit.then(() => reject(new Error(`npm start ended before printing ${pattern}:\n${output}`)));
    check();
  });
}

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${crmUrl}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sample-crm-'));
  // Its own process group, so Ctrl-C reaches npm, tsx and the sample at once, as in a terminal.
  child = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    detached: true,
    env: { ...process.env, PORT: '0', EMULATOR_PORT: '0', SAMPLE_CRM_DATA: dataDir, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close': after the process ended and its output (shared with npm's children) is fully read.
  exit = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  crmUrl = (await waitForOutput(/CRM page:\s+(http:\/\/\S+)/))[1];
  await waitForOutput(/Traffic played/);
}, START_TIMEOUT_MS);

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null && child.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group has already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface Row {
  [key: string]: unknown;
}

describe('npm start (the sample CRM)', () => {
  it('shows customers from all three channels, and the stop word, in the CRM', async () => {
    const { data: conversations } = await api<{ data: Row[] }>('/api/conversations');
    expect(new Set(conversations.map((c) => c.channel))).toEqual(new Set(['phone', 'photo_social', 'social_page']));
    const { data: contacts } = await api<{ data: Row[] }>('/api/contacts');
    const sam = contacts.find((c) => c.name === 'Sam Okafor');
    expect(sam).toMatchObject({ opted_out: true, opt_keyword: 'STOP' });
    expect(contacts.find((c) => c.name === 'Maya Lopez')).toMatchObject({ opted_out: false });
  });

  it('routed the handoff ticket through the rules', async () => {
    const { data: tickets } = await api<{ data: Row[] }>('/api/tickets');
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({
      result: 'routed',
      kind: 'handoff',
      priority: 'high',
      rule: 'refunds and cancellations',
    });
    expect(['ana', 'ben']).toContain(tickets[0].assignee);
    expect(output).toMatch(/routed\s+tkt_\S+ -> (ana|ben) \(high\)/);
  });

  it("refused the send to the opted-out contact and recorded the provider's rejection", async () => {
    const { data: activity } = await api<{ data: Row[] }>('/api/activity?limit=200');
    const refusals = activity.filter((a) => a.kind === 'crm.send_refused').map((a) => String(a.summary));
    expect(refusals).toEqual(
      expect.arrayContaining([expect.stringContaining('CONTACT_OPTED_OUT'), expect.stringContaining('SEND_FAILED')]),
    );
    expect(activity.map((a) => a.kind)).toEqual(
      expect.arrayContaining(['message.received', 'message.sent', 'conversation.created', 'contact.opted_out']),
    );
    const failure = activity.find((a) => a.kind === 'message.delivery_failed');
    expect(failure).toMatchObject({ conversation_id: 'conv_throttled' });
    expect(String(failure?.summary)).toContain('131049');
  });

  it('processed every webhook delivery', async () => {
    const { data: deliveries } = await api<{ data: Row[] }>('/api/deliveries');
    expect(deliveries.length).toBeGreaterThanOrEqual(10);
    expect(deliveries.filter((d) => d.status !== 'done')).toEqual([]);
    const page = await fetch(`${crmUrl}/`);
    expect(await page.text()).toContain('convo-kit sample CRM');
  });

  it('stops cleanly on Ctrl-C', async () => {
    process.kill(-child.pid!, 'SIGINT');
    const { code, signal } = await exit;
    // npm itself may end by the signal (as in a terminal); the sample must have closed everything first.
    expect(code === 0 || signal === 'SIGINT', `code ${code}, signal ${signal}`).toBe(true);
    expect(output).toContain('everything closed cleanly');
    expect(output).not.toMatch(/Error|ERR_/);
    await expect(fetch(`${crmUrl}/api/contacts`)).rejects.toThrow();
  });
});
