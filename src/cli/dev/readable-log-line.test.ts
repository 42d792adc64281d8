import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { readableLogLine } from './readable-log-line.js';

/** What a real pino logger writes for `log(logger)`, one JSON line. */
function pinoLine(log: (logger: pino.Logger) => void): string {
  let line = '';
  const logger = pino({ level: 'debug' }, { write: (text: string) => (line = text.trimEnd()) });
  log(logger);
  return line;
}

describe('readableLogLine', () => {
  it('renders a pino line as time, level, message and its own fields', () => {
    const line = pinoLine((log) => log.info({ ticket: 'tkt_1', priority: 'high', tags: ['vip'] }, 'new ticket'));
    expect(readableLogLine(line)).toMatch(
      /^\d\d:\d\d:\d\d info {2}new ticket {2}ticket=tkt_1 priority=high tags=\["vip"\]$/,
    );
  });

  it('quotes a value with spaces, and shows an error by its message with its stack below', () => {
    const line = pinoLine((log) => log.error({ err: new Error('disk full'), note: 'two words' }, 'store failed'));
    const [first, ...rest] = readableLogLine(line).split('\n');
    expect(first).toMatch(/^\d\d:\d\d:\d\d error store failed {2}err="disk full" note="two words"$/);
    expect(rest[0]).toBe('Error: disk full');
  });

  it('leaves anything that is not a pino line as it was', () => {
    for (const line of ['Webhook URL: http://127.0.0.1:3100/webhooks', '{not json', '{"a":1}', ''])
      expect(readableLogLine(line)).toBe(line);
  });

  it('cuts a long value', () => {
    const line = pinoLine((log) => log.warn({ body: 'x'.repeat(1000) }, 'big'));
    expect(readableLogLine(line).length).toBeLessThan(260);
  });
});
