import { EVENT_NAMES, type EventName } from './catalog.js';

/** The namespaces the service accepts as `ns.*` subscriptions. */
export const EVENT_NAMESPACES = ['message', 'conversation', 'contact', 'ticket', 'template'] as const;
export type EventNamespace = (typeof EVENT_NAMESPACES)[number];

/** What a webhook endpoint or a handler can subscribe to: an exact name, `*`, or a namespace wildcard. */
export type EventPattern = EventName | '*' | `${EventNamespace}.*`;

/** The known event names a pattern selects. */
export type EventsMatching<P extends EventPattern> = P extends '*'
  ? EventName
  : P extends `${infer NS}.*`
    ? Extract<EventName, `${NS}.${string}`>
    : Extract<P, EventName>;

const WILDCARDS = new Set<string>(['*', ...EVENT_NAMESPACES.map((ns) => `${ns}.*`)]);

/** Is `pattern` something the service accepts as a subscription? (Unknown exact names are allowed: forward compatibility.) */
export function isEventPattern(pattern: string): boolean {
  if (WILDCARDS.has(pattern)) return true;
  return /^[a-z_]+\.[a-z_]+$/.test(pattern);
}

/**
 * What a webhook subscription may name (docs/webhook-deliveries.md, "Subscriptions"): `*`, a namespace
 * wildcard, or a known event name. A handler may still name an unknown event (forward compatibility); a
 * subscription may not, since it would never be sent anything.
 */
export const SUBSCRIBABLE: readonly string[] = ['*', ...EVENT_NAMESPACES.map((ns) => `${ns}.*`), ...EVENT_NAMES];

export function isSubscribable(pattern: string): boolean {
  return SUBSCRIBABLE.includes(pattern);
}

/** Exactly the service's matching: exact name, `*`, or `ns.*` for the five namespaces; nothing else is a wildcard. */
export function matchesPattern(pattern: string, eventName: string): boolean {
  if (pattern === '*' || pattern === eventName) return true;
  if (!WILDCARDS.has(pattern)) return false;
  return eventName.startsWith(pattern.slice(0, -1));
}

export function matchesAny(patterns: readonly string[], eventName: string): boolean {
  return patterns.some((p) => matchesPattern(p, eventName));
}
