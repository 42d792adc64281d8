import pc from 'picocolors';
import { pino, type Logger } from 'pino';

// Colour only on a terminal: piped output (the test, a log file) stays plain text.
const c = pc.createColors(Boolean(process.stdout.isTTY));

export type Tone = 'event' | 'crm' | 'ticket' | 'traffic' | 'warn' | 'info';

const TONES: Record<Tone, (text: string) => string> = {
  event: c.cyan,
  crm: c.green,
  ticket: c.magenta,
  traffic: c.yellow,
  warn: c.red,
  info: c.bold,
};

const LABEL_WIDTH = 8;

/** One line per thing that happened: time, a short label, the fact. */
export function say(tone: Tone, label: string, text: string): void {
  const time = new Date().toISOString().slice(11, 19);
  console.log(`${c.dim(time)} ${TONES[tone](label.padEnd(LABEL_WIDTH))} ${text}`);
}

export function heading(text: string): void {
  console.log(`\n${c.bold(text)}`);
}

/** The fields of a pino line this terminal shows: the message, the delivery, the error's message (never its stack). */
interface LogLine {
  level: number;
  msg?: string;
  deliveryId?: string;
  err?: { message?: string };
}

/**
 * The receiver's logger for this terminal: a warning or an error becomes one `say` line, like everything else
 * the sample prints, rather than a JSON object with a stack trace between them. `LOG_LEVEL` set gives pino's
 * own JSON lines at that level, for whoever wants the whole record.
 */
export function terminalLogger(level = process.env.LOG_LEVEL): Logger {
  if (level !== undefined && level !== '') return pino({ level });
  return pino(
    // The error's own message: pino's default serializer appends its causes' (the receiver's message quotes its cause already).
    { level: 'warn', serializers: { err: (error: Error) => ({ message: error.message }) } },
    {
      write(json: string) {
        const line = JSON.parse(json) as LogLine;
        const detail = [line.err?.message, line.deliveryId].filter(Boolean).join(', ');
        say(
          'warn',
          line.level > pino.levels.values.warn! ? 'error' : 'warning',
          `${line.msg ?? ''}${detail ? ` (${detail})` : ''}`,
        );
      },
    },
  );
}

export { c as colors };
