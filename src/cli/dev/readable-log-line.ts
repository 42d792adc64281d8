/** pino's numeric levels, by name. */
const LEVELS: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
/** The fields every pino line carries; the rest are the line's own. */
const BASE_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v']);
/** A field value longer than this is cut: a line is for reading, the JSON (npm start) keeps everything. */
const MAX_VALUE_CHARS = 200;

function shown(value: unknown): string {
  const text = typeof value === 'string' && !/[\s"=]/.test(value) ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/** An error field as pino serializes it: its message on the line, its stack below. */
function errorOf(value: unknown): { message: string; stack?: string } | undefined {
  if (!value || typeof value !== 'object' || typeof (value as { message?: unknown }).message !== 'string') return;
  const { message, stack } = value as { message: string; stack?: unknown };
  return { message, ...(typeof stack === 'string' && { stack }) };
}

/**
 * A pino JSON line as one readable line, `12:04:31 info  new ticket  ticket=tkt_1 priority=high`, for the
 * terminal `convo-kit dev` runs the app in (README: Starters); anything else comes back as it was. The app
 * itself still logs JSON, which is what production log pipelines read (`npm start`).
 */
export function readableLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof entry.level !== 'number' || typeof entry.time !== 'number') return line;
  const time = new Date(entry.time).toTimeString().slice(0, 8);
  const level = (LEVELS[entry.level] ?? String(entry.level)).padEnd(5);
  const stacks: string[] = [];
  const fields = Object.entries(entry)
    .filter(([key]) => !BASE_FIELDS.has(key))
    .map(([key, value]) => {
      const error = errorOf(value);
      if (!error) return `${key}=${shown(value)}`;
      if (error.stack) stacks.push(error.stack);
      return `${key}=${shown(error.message)}`;
    });
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  return [`${time} ${level} ${msg}${fields.length ? `  ${fields.join(' ')}` : ''}`, ...stacks].join('\n');
}
