import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { mapLimit, startTargetReceiver, tempDir, type TargetReceiver } from './helpers.js';
import { killAllCli, runCli } from './run-cli.js';

const SECRET = 'whsec_usage_test_secret_0123456789';
const PROBE = fileURLToPath(new URL('./load-probe.cjs', import.meta.url));
const dir = tempDir('usage');
const targets: TargetReceiver[] = [];
const commandNames = COMMANDS.map((entry) => entry.name);

afterEach(async () => {
  await killAllCli();
  await Promise.all(targets.splice(0).map((t) => t.close()));
});
afterAll(() => dir.remove());

describe('convo-kit --help', () => {
  it('names each command in the table as its module defines it', async () => {
    for (const entry of COMMANDS) {
      const program = new Command();
      (await entry.load())(program);
      expect(program.commands.map((c) => c.name())).toEqual([entry.name]);
    }
  });

  it('lists every command', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(commandNames).toEqual(
      expect.arrayContaining(['listen', 'deliveries', 'replay', 'trigger', 'sign', 'emulator', 'openapi']),
    );
    for (const name of commandNames) expect(result.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('has --help on every command', async () => {
    const helps = await mapLimit(commandNames, 2, (name) => runCli([name, '--help']));
    for (const [i, help] of helps.entries()) {
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: convo-kit ${commandNames[i]}`);
    }
  }, 60_000);

  it('shows examples in the --help of every command that runs (README: each has --help with examples)', async () => {
    const leaves: string[][] = [];
    const walk = (command: Command, path: string[]) => {
      if (command.commands.length === 0) leaves.push(path);
      for (const sub of command.commands) walk(sub, [...path, sub.name()]);
    };
    for (const entry of COMMANDS) {
      const program = new Command();
      (await entry.load())(program);
      walk(program.commands[0]!, [entry.name]);
    }
    expect(leaves).toEqual(expect.arrayContaining([['deliveries', 'list'], ['deliveries', 'show'], ['replay']]));
    const helps = await mapLimit(leaves, 2, (path) => runCli([...path, '--help']));
    for (const [i, help] of helps.entries()) {
      expect([leaves[i], help.stdout]).toEqual([leaves[i], expect.stringMatching(/\nExamples:\n {2}\S/)]);
      // A pattern such as ticket.* is quoted: unquoted, zsh refuses it when no file matches, bash may expand it.
      const examples = help.stdout.slice(help.stdout.indexOf('\nExamples:'));
      expect([leaves[i], examples]).toEqual([leaves[i], expect.not.stringMatching(/(^|\s)[^\s'"]*\*[^\s'"]*(\s|$)/)]);
    }
  }, 60_000);

  it('names an unknown command (exit 2)', async () => {
    const result = await runCli(['lisen']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command 'lisen'/);
    expect(result.stderr).toMatch(/Did you mean listen\?/);
  });
});

describe('what each command loads', () => {
  const loaded = (stderr: string) => JSON.parse(/\[load-probe\] (.*)/.exec(stderr)![1]!) as string[];
  const probe = { NODE_OPTIONS: `--require ${PROBE}` };

  it('sign, trigger and --help load neither express, better-sqlite3 nor pino', async () => {
    const runs = await mapLimit(
      [
        ['--help'],
        ['sign', '--secret', SECRET, '-'],
        ['trigger', 'ticket.created', '--to', 'http://127.0.0.1:9/x', '--secret', SECRET],
      ],
      2,
      (args) => runCli(args, { env: probe, input: '{"event":"ticket.created","data":{}}' }),
    );
    for (const run of runs) expect(loaded(run.stderr)).toEqual([]);
  }, 60_000);

  it('deliveries loads the SQLite store only when it runs (the probe sees it)', async () => {
    const db = dir.file('probe.db');
    const seeded = await runCli(['deliveries', 'list', '--db', db], { env: probe });
    expect(loaded(seeded.stderr)).toEqual([]); // refused before opening: the file does not exist
    writeFileSync(dir.file('empty.db'), '');
    const opened = await runCli(['deliveries', 'list', '--db', dir.file('empty.db')], { env: probe });
    expect(opened.code).toBe(0);
    expect(loaded(opened.stderr)).toContain('better-sqlite3');
  }, 60_000);
});

describe('bad arguments: each names the problem, with its exit code', () => {
  const notAModule = dir.file('not-handlers.mjs');
  writeFileSync(notAModule, 'export const answer = 42;\n');
  const notAnObject = dir.file('array.json');
  writeFileSync(notAnObject, '[1, 2]');
  const missingDb = dir.file('missing.db');

  it.each<[string, string[], number, RegExp]>([
    ['listen without a secret', ['listen', '--port', '0', '--db', dir.file('l.db')], 2, /No webhook secret given/],
    [
      'listen on an impossible port',
      ['listen', '--port', '70000', '--secret', SECRET],
      2,
      /--port.*Expected a whole number from 0 to 65535, got `70000`/,
    ],
    [
      'listen forwarding to a non-HTTP URL',
      ['listen', '--secret', SECRET, '--forward-to', 'ftp://x/'],
      2,
      /--forward-to.*Expected an http:\/\/ or https:\/\/ URL, got the scheme `ftp:`/,
    ],
    [
      'listen forwarding to a host and port without the scheme',
      ['listen', '--secret', SECRET, '--forward-to', 'localhost:4000/webhooks'],
      2,
      /--forward-to.*got `localhost:4000\/webhooks`: write it as http:\/\/localhost:4000\/webhooks\./,
    ],
    [
      'replay to a URL with a password in it, which is not echoed',
      ['replay', '--dry-run', '--to', 'http://bob:s3cret-pw@localhost:3000/webhooks'],
      2,
      /^error: A URL with credentials \(user:password@\) cannot be sent to: http:\/\/bob:\*\*\*@localhost:3000\/webhooks\nGive it without them/,
    ],
    [
      'listen on a path without a slash',
      ['listen', '--secret', SECRET, '--path', 'webhooks'],
      2,
      /--path.*starting with `\/`/,
    ],
    [
      'listen with a database in a directory that does not exist',
      ['listen', '--port', '0', '--secret', SECRET, '--db', dir.file('no/such/dir/x.db')],
      3,
      /No directory .*dir for --db .*x\.db\./,
    ],
    [
      'listen with a database it cannot open (a directory)',
      ['listen', '--port', '0', '--secret', SECRET, '--db', dir.path],
      1,
      /Cannot open the delivery database .*: /,
    ],
    [
      'listen with a PostgreSQL database that does not answer, its password hidden',
      ['listen', '--port', '0', '--secret', SECRET, '--db', 'postgres://app:pg-pw@127.0.0.1:1/crm'],
      1,
      /Cannot open the delivery database postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/crm: .*\nIs the PostgreSQL server up/,
    ],
    ['sign of a directory', ['sign', '--secret', SECRET, dir.path], 2, /body `.*` is not a file/],
    ['replay with nowhere to go', ['replay', '--db', missingDb], 2, /Nowhere to replay to/],
    [
      'replay to both handlers and a URL',
      ['replay', '--handlers', notAModule, '--to', 'http://localhost/'],
      2,
      /either --handlers or --to, not both/,
    ],
    [
      'replay to a URL without a secret',
      ['replay', '--to', 'http://localhost/', '--db', missingDb],
      2,
      /pass --secret/,
    ],
    [
      'replay --new-ids without --to',
      ['replay', '--new-ids', '--dry-run', '--db', missingDb],
      2,
      /--new-ids only applies with --to/,
    ],
    [
      'replay from a missing database',
      ['replay', '--dry-run', '--db', missingDb],
      3,
      /No delivery database at .*missing\.db/,
    ],
    [
      'replay a missing handlers module',
      ['replay', '--handlers', dir.file('nope.ts')],
      3,
      /No handlers module at .*nope\.ts/,
    ],
    [
      'replay a module without handlers',
      ['replay', '--handlers', notAModule],
      2,
      /exports neither a receiver nor a handlers object/,
    ],
    [
      'replay at zero concurrency',
      ['replay', '--dry-run', '--concurrency', '0'],
      2,
      /--concurrency.*from 1 to 100, got `0`/,
    ],
    [
      'trigger of an unknown event',
      ['trigger', 'ticket.opened', '--to', 'http://localhost/', '--secret', SECRET],
      2,
      /Unknown event `ticket\.opened`/,
    ],
    [
      'trigger of a misspelt event, with the one it most likely means',
      ['trigger', 'ticket.create', '--to', 'http://localhost/', '--secret', SECRET],
      2,
      /Unknown event `ticket\.create` \(did you mean ticket\.created\?\); expected one of:/,
    ],
    [
      'trigger without --to',
      ['trigger', 'ticket.created', '--secret', SECRET],
      2,
      /required option '--to <url>' not specified/,
    ],
    [
      'trigger with --url for --to, which is named as the option it does not know',
      ['trigger', 'ticket.created', '--url', 'http://localhost:3000/webhooks', '--secret', SECRET],
      2,
      /unknown option '--url'/,
    ],
    [
      'trigger with a --set that breaks the schema',
      ['trigger', 'ticket.created', '--to', 'http://localhost/', '--secret', SECRET, '--set', 'priority=asap'],
      2,
      /data\.priority: Invalid option/,
    ],
    [
      'trigger with a malformed --set',
      ['trigger', 'ticket.created', '--to', 'http://localhost/', '--secret', SECRET, '--set', 'priority'],
      2,
      /--set expects path=value/,
    ],
    [
      'trigger with a --set into the prototype',
      ['trigger', 'ticket.created', '--to', 'http://localhost/', '--secret', SECRET, '--set', '__proto__.x=1'],
      2,
      /is not a dotted path of field names/,
    ],
    [
      'trigger with --data that is not an object',
      ['trigger', 'ticket.created', '--to', 'http://localhost/', '--secret', SECRET, '--data', notAnObject],
      2,
      /--data must hold a JSON object/,
    ],
    [
      'trigger to a receiver that is not running',
      ['trigger', 'ticket.created', '--to', 'http://127.0.0.1:9/webhooks', '--secret', SECRET],
      1,
      /got no answer/,
    ],
  ])('%s', async (_name, args, code, message) => {
    const result = await runCli(args);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(code);
  });

  it('never echoes the password of a URL with credentials, which fetch refuses (trigger, replay, listen, openapi)', async () => {
    const url = 'http://bob:s3cret-pw@localhost:3000/webhooks';
    const results = await mapLimit(
      [
        ['trigger', 'ticket.created', '--to', url, '--secret', SECRET],
        ['replay', '--dry-run', '--to', url],
        ['listen', '--secret', SECRET, '--forward-to', url],
        ['openapi', '--server-url', url],
      ],
      2,
      (args) => runCli(args),
    );
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('cannot be sent to: http://bob:***@localhost:3000/webhooks');
      expect(result.stdout + result.stderr).not.toContain('s3cret-pw');
    }
  }, 60_000);

  it('listen on a port that is taken (exit 1)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const result = await runCli(['listen', '--port', String(port), '--secret', SECRET, '--db', dir.file('taken.db')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      taken.close();
    }
  });
});

describe('convo-kit trigger overrides', () => {
  it('applies --data and --set to the sample, and --no-validate sends a payload that breaks the schema', async () => {
    const target = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('target.db') });
    targets.push(target);
    const data = dir.file('ticket.json');
    writeFileSync(data, JSON.stringify({ subject: 'Refund for order 1042' }));
    const sent = await runCli([
      'trigger',
      'ticket.updated',
      '--to',
      target.url,
      '--secret',
      SECRET,
      '--data',
      data,
      '--set',
      'priority=urgent',
      '--set',
      'changed_fields=["priority"]',
      '--set',
      'assignee="007"',
      '--json',
    ]);
    expect(sent.code).toBe(0);
    const { payload, status } = JSON.parse(sent.stdout) as {
      status: number;
      payload: { data: Record<string, unknown> };
    };
    expect(status).toBe(200);
    expect(payload.data).toMatchObject({
      subject: 'Refund for order 1042',
      priority: 'urgent',
      changed_fields: ['priority'],
      assignee: '007',
    });

    const broken = await runCli([
      'trigger',
      'ticket.created',
      '--to',
      target.url,
      '--secret',
      SECRET,
      '--set',
      'priority=asap',
      '--no-validate',
      '--json',
    ]);
    expect(broken.code).toBe(0);
    expect(JSON.parse(broken.stdout)).toMatchObject({ status: 200, payload: { data: { priority: 'asap' } } });
  }, 60_000);
});
