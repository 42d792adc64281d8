import { readFileSync } from 'node:fs';
import { z } from 'zod';

const Priority = z.enum(['low', 'normal', 'high', 'urgent']);
const Clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM (24-hour)');
const Weekday = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);

const Rule = z.strictObject({
  name: z.string().min(1).max(100),
  /** Every condition given must hold; an empty `when` matches every ticket (a fallback rule). */
  when: z.strictObject({
    kind: z
      .array(z.enum(['handoff', 'safety_review', 'routing_rule']))
      .min(1)
      .optional(),
    priority: z.array(Priority).min(1).optional(),
    channel: z
      .array(z.enum(['phone', 'photo_social', 'social_page']))
      .min(1)
      .optional(),
    /** Case-insensitive words looked for in the ticket subject and the customer's recent messages. */
    keywords: z.array(z.string().min(1).max(50)).min(1).max(100).optional(),
    /** true: only inside business hours; false: only outside. */
    business_hours: z.boolean().optional(),
  }),
  /** Candidates, taken in round-robin order, skipping anyone at their `max_open`. */
  assign: z.array(z.string().min(1)).min(1).max(50),
  set_priority: Priority.optional(),
});

export const RoutingConfig = z
  .strictObject({
    /** IANA time zone the business hours are in. */
    timezone: z.string().refine(isTimeZone, 'expected an IANA time zone such as "Europe/Paris"'),
    business_hours: z.strictObject({ days: z.array(Weekday).min(1), start: Clock, end: Clock }),
    assignees: z.record(z.string().min(1), z.strictObject({ max_open: z.number().int().min(1).max(10_000) })),
    rules: z.array(Rule).min(1).max(200),
    sla: z.strictObject({
      escalate_within_minutes: z
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 60),
      check_every_seconds: z.number().int().min(5).max(3600),
    }),
  })
  .superRefine((config, issues) => {
    config.rules.forEach((rule, index) => {
      rule.assign.forEach((name, position) => {
        if (!Object.hasOwn(config.assignees, name)) {
          issues.addIssue({
            code: 'custom',
            path: ['rules', index, 'assign', position],
            message: `"${name}" is not one of the assignees (${Object.keys(config.assignees).join(', ')})`,
          });
        }
      });
    });
  });
export type RoutingConfig = z.output<typeof RoutingConfig>;
export type RoutingRule = RoutingConfig['rules'][number];
export type Priority = z.output<typeof Priority>;

/** Thrown when the rules file is unreadable or invalid; the message names the file, the rule and the field. */
export class RoutingConfigError extends Error {
  override name = 'RoutingConfigError';
}

/** Validates a parsed config, naming each bad rule by number and name: `rule 2 ("refunds"): when.priority.0: …`. */
export function parseRoutingConfig(value: unknown, source = 'routing config'): RoutingConfig {
  const result = RoutingConfig.safeParse(value);
  if (result.success) return result.data;
  const rules = (value as { rules?: { name?: unknown }[] } | null)?.rules;
  const lines = result.error.issues.map((issue) => {
    const [head, index, ...rest] = issue.path;
    if (head === 'rules' && typeof index === 'number') {
      const name = Array.isArray(rules) && typeof rules[index]?.name === 'string' ? ` ("${rules[index].name}")` : '';
      return `rule ${index + 1}${name}: ${rest.join('.') || '(the rule)'}: ${issue.message}`;
    }
    return `${issue.path.join('.') || '(top level)'}: ${issue.message}`;
  });
  return fail(`${source} is invalid:\n  ${lines.join('\n  ')}`);
}

/** Reads and validates the rules file at start, so a bad rule stops the service before any ticket moves. */
export function loadRoutingConfig(path: string): RoutingConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`cannot read the rules file ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseRoutingConfig(value, path);
}

function fail(message: string): never {
  throw new RoutingConfigError(message);
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
