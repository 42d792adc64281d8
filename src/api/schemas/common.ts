import { z } from 'zod';

/** The three channel kinds, also the platform names in `brain_config` (docs/resources.md). */
export const Channel = z.enum(['phone', 'photo_social', 'social_page']);
export type Channel = z.output<typeof Channel>;

/** ISO-8601 UTC timestamps as the service writes them. */
export const Timestamp = z.iso.datetime({ offset: true });

/**
 * A timestamp a request sends. Any UTC offset is read as the instant it names and kept in UTC
 * (`…T00:00:00+02:00` becomes `…T22:00:00.000Z` the day before): every time the service answers is
 * UTC (decisions §1), and stored times are compared in that one spelling, so a local time kept as
 * written would fall due hours early or late. An instant outside years 0000-9999 has no such spelling.
 */
export const TimestampInput = Timestamp.transform((value, ctx) => {
  const ms = Date.parse(value);
  const utc = Number.isNaN(ms) ? '' : new Date(ms).toISOString();
  if (Timestamp.safeParse(utc).success) return utc;
  ctx.issues.push({ code: 'custom', message: 'expected a time from year 0000 to 9999 in UTC', input: value });
  return z.NEVER;
});

/**
 * International phone format with a leading plus (E.164). In a query string an unencoded `+` arrives as a
 * space (form encoding), so that spelling is named in the error.
 */
export const PhoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, {
    error: (issue) =>
      typeof issue.input === 'string' && /^ [1-9]\d{6,14}$/.test(issue.input)
        ? 'expected a leading plus, got a space: in a query string, write + as %2B'
        : 'expected international format with a leading plus, e.g. +14155550123',
  })
  .meta({ examples: ['+14155550123'] });

/** An HTTPS URL, as the spec requires for media, CTA, custom reply and webhook URLs. */
export const HttpsUrl = z.url({ protocol: /^https$/, error: 'expected an https:// URL' });

/**
 * A URL the service calls and reads back whole (webhook and custom reply URLs): credentials in it
 * (`https://user:pass@…`) would be shown by every GET, and sent on as Basic auth, while the signature
 * (`secret`) is what tells the receiver the call is the service's.
 */
export function withoutCredentials<U extends z.ZodType<string>>(url: U, signedBy: string) {
  const hasCredentials = (value: string) => {
    if (!URL.canParse(value)) return false;
    const { username, password } = new URL(value);
    return username !== '' || password !== '';
  };
  return url.refine((value) => !hasCredentials(value), {
    message: `expected a URL without credentials (user:password@): they would be read back; ${signedBy}`,
  });
}

/** A prefixed resource id (`conv_…`, `tkt_…`) as it travels in a path or a body. */
export const Id = z.string().min(1).max(100);

/** Path params of every `/:id` route. */
export const IdParams = z.object({ id: Id });

/** A required, bounded, human-entered string. */
export function text(max: number) {
  return z.string().min(1).max(max);
}

/** {@link text} that a reader sees: at least one character besides blanks (a reply of spaces says nothing). */
export function visibleText(max: number) {
  return text(max).refine((value) => value.trim() !== '', { message: 'expected text, not only blanks' });
}

/** Starts the message of every issue that is a wrong channel, so {@link isInvalidPlatformIssue} can tell. */
const INVALID_PLATFORM_MESSAGE = 'INVALID_PLATFORM';

/**
 * A channel or platform named in a request. Unlike a plain enum, a wrong value is the service's
 * 422 `INVALID_PLATFORM` (docs/resources.md); {@link isInvalidPlatformIssue} lets a server tell it apart.
 */
export const Platform = z.enum(Channel.options, {
  // Only a string names a channel: a missing one, or a number, fails the schema like any other field (400).
  error: (issue) =>
    issue.code === 'invalid_value' && typeof issue.input === 'string'
      ? `${INVALID_PLATFORM_MESSAGE}: expected one of ${Channel.options.join(', ')}`
      : undefined,
});

const isChannel = (value: string) => (Channel.options as readonly string[]).includes(value);

/**
 * An object keyed by platform name (`brain_config.platform_prompts`, `enabled_platforms`). Any subset
 * of the three platforms; another key is `INVALID_PLATFORM`, like a bad {@link Platform} value.
 */
export function platformMap<V extends z.ZodType>(value: V) {
  const key = z
    .string()
    .refine(isChannel, {
      message: `${INVALID_PLATFORM_MESSAGE}: expected one of ${Channel.options.join(', ')}`,
      params: { code: 'INVALID_PLATFORM' },
    })
    .meta({ enum: [...Channel.options] });
  return z.record(key, value);
}

/** True for an issue raised by {@link Platform} or {@link platformMap}: the server answers 422 `INVALID_PLATFORM` for it. */
export function isInvalidPlatformIssue(issue: z.core.$ZodIssue): boolean {
  switch (issue.code) {
    case 'invalid_value':
      return (
        issue.message.startsWith(INVALID_PLATFORM_MESSAGE) &&
        issue.values.length === Channel.options.length &&
        Channel.options.every((c) => issue.values.includes(c))
      );
    case 'invalid_key':
      return issue.issues.some(isInvalidPlatformIssue);
    case 'custom':
      return issue.params?.code === 'INVALID_PLATFORM';
    default:
      return false;
  }
}

/** A variable in a template body (or an automation's content): `{{1}}` to `{{99}}`, the positions {@link TemplateVariables} fills. */
export const TEMPLATE_VARIABLE = /\{\{\s*([1-9]\d?)\s*\}\}/g;

const BRACED = /\{\{[^{}]*\}\}/g;
const ONE_VARIABLE = new RegExp(`^${TEMPLATE_VARIABLE.source}$`);

/**
 * Copy with `{{n}}` variables. Anything else in double braces (`{{0}}`, `{{100}}`, `{{01}}`, `{{name}}`)
 * is refused, naming it: no `variables` key can fill it, so it would reach the customer as written.
 */
export function templateCopy(max: number) {
  return text(max).superRefine((value, ctx) => {
    const stray = [...value.matchAll(BRACED)].find(([braced]) => !ONE_VARIABLE.test(braced));
    if (stray)
      ctx.addIssue({
        code: 'custom',
        message: `expected variables written {{1}} to {{99}}, found ${stray[0].slice(0, 40)}`,
      });
  });
}

/** Template variables keyed by their position as a string (`{"1": "Ada"}`): a trigger's `metadata`, a template send's `variables`. */
export const TemplateVariables = z.record(
  z
    .string()
    .regex(/^[1-9]\d?$/, 'expected a variable position such as "1"')
    .meta({ examples: ['1'] }),
  z.string().max(1024),
);

/** The Idempotency-Key header of the two free-text send routes (spec, Send behavior 6). */
export const IdempotencyKey = z.string().min(1).max(200);

/** Each synthetic answer's resource, so that the document can say "the resource, plus `test`" by reference. */
const SYNTHETIC_OF = new WeakMap<z.ZodType, z.ZodObject>();

/** Marks the answer of a test-key synthetic route (docs/keys-and-limits.md: the body carries `"test": true`). */
export function synthetic<Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  resource: z.ZodObject<Shape, Config>,
) {
  // Typed by shape and config (not `T extends ZodObject`) so the result keeps the resource's fields for the client's types.
  const answer = resource.extend({ test: z.literal(true).optional() });
  SYNTHETIC_OF.set(answer, resource);
  return answer;
}

/** The resource a {@link synthetic} answer extends, or undefined for any other schema. */
export const syntheticOf = (schema: z.ZodType): z.ZodObject | undefined => SYNTHETIC_OF.get(schema);

/** What a write that takes no body accepts when one is sent (docs/errors.md): `{}`, no field. */
export const EmptyBody = z.strictObject({});

/** The response of a 204 route: no body. */
export const NoContent = z.void();

/**
 * Plain decimal digits, no sign, no leading zero: the one spelling of a whole number in a query string.
 * At most 15 digits, so that Number() is exact and the error message quotes the value as it was sent.
 */
const DECIMAL_DIGITS = /^(?:0|[1-9][0-9]{0,14})$/;

/**
 * A whole-number query parameter from `min` to `max`. On the wire only plain decimal digits count:
 * `Number()` and `z.coerce` also read `1e1`, `0x10`, ` 5` and `''` (as 0), so a typo or another
 * language's spelling would be answered as some other value; a leading zero is refused as well, since
 * some parsers read `010` as octal. Anything else is 400 VALIDATION_FAILED naming the parameter
 * (docs/errors.md). The client passes a number, which is checked as is.
 */
export function queryInteger(min: number, max: number) {
  const error = (issue: { input?: unknown }): string =>
    `expected an integer from ${min} to ${max} in plain decimal digits, got ${
      Array.isArray(issue.input) ? 'it more than once' : JSON.stringify(String(issue.input).slice(0, 40))
    }`;
  return z.preprocess(
    (value) => (typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value),
    z.int({ error }).min(min, { error }).max(max, { error }),
  );
}
