import pc from 'picocolors';

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

export { c as colors };
