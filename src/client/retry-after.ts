/**
 * A `Retry-After` that is digits beyond any sensible wait (`9999…`, past what a number holds) still means
 * "not soon": it is kept as this many seconds (about 68 years), a whole number above any `maxRetryAfterMs`.
 */
const LONGEST_SECONDS = 2 ** 31;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/**
 * The three forms an HTTP date is written in, each with its fields as (day, month, year, h, m, s):
 * `Sun, 06 Nov 2026 08:49:37 GMT` (what servers send), `Sunday, 06-Nov-26 08:49:37 GMT` and
 * `Sun Nov  6 08:49:37 2026`. Nothing looser: `Date.parse` alone reads `abc 2020` or `Mon 1` as dates.
 */
const HTTP_DATES: readonly { pattern: RegExp; order: readonly number[] }[] = [
  { pattern: new RegExp(`^[A-Z][a-z]{2}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`), order: [1, 2, 3, 4, 5, 6] },
  { pattern: new RegExp(`^[A-Z][a-z]{5,8}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`), order: [1, 2, 3, 4, 5, 6] },
  { pattern: new RegExp(`^[A-Z][a-z]{2} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`), order: [2, 1, 6, 3, 4, 5] },
];

/** An HTTP date as epoch milliseconds, or `null` when `text` is not one (or names no real day, like 30 Feb). */
function parseHttpDate(text: string): number | null {
  for (const { pattern, order } of HTTP_DATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const [day, month, year, hour, minute, second] = order.map((i) => match[i]!.trim());
    // A two-digit year (the second form) is taken as this century's.
    const fullYear = year!.length === 2 ? 2000 + Number(year) : Number(year);
    const fields = [Number(day), Number(hour), Number(minute), Number(second)];
    const ms = Date.UTC(fullYear, MONTHS.indexOf(month!), fields[0], fields[1], fields[2], fields[3]);
    // Date.UTC rolls 31 Nov over to 1 Dec and 25:00 to the next day: a field that moved was not a real one.
    const back = new Date(ms);
    const kept = [back.getUTCDate(), back.getUTCHours(), back.getUTCMinutes(), back.getUTCSeconds()];
    return kept.every((v, i) => v === fields[i]) ? ms : null;
  }
  return null;
}

/**
 * `Retry-After` as whole seconds to wait: delta-seconds (the service sends these, decisions.md "Rate
 * limit"), or an HTTP date turned into the whole seconds from `now` until it (rounded up, never negative).
 * `null` for anything else (absent, `1.5`, `-3`, `soon`), which the caller treats as "not said".
 */
export function parseRetryAfterSeconds(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), LONGEST_SECONDS);
  const date = parseHttpDate(trimmed);
  return date === null ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
