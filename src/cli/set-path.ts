import { CliError } from './cli-error.js';

const MAX_DEPTH = 16;
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `--set` values: JSON when they parse (`3`, `true`, `null`, `["a"]`, `"007"`), else the text as a string. */
export function parseSetValue(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/** Applies `a.b.0.c=value` to a plain object, creating objects along the way (numeric segments index arrays). */
export function applySet(target: Record<string, Json>, assignment: string): void {
  const at = assignment.indexOf('=');
  if (at <= 0) {
    throw new CliError('USAGE', `--set expects path=value such as customer.name=Ana, got \`${assignment}\`.`);
  }
  const segments = assignment.slice(0, at).split('.');
  if (segments.length > MAX_DEPTH || segments.some((s) => s === '' || FORBIDDEN.has(s))) {
    throw new CliError(
      'USAGE',
      `--set path \`${assignment.slice(0, at)}\` is not a dotted path of field names (at most ${MAX_DEPTH} deep).`,
    );
  }
  let node: Record<string, Json> | Json[] = target;
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    const key: string | number = Array.isArray(node) ? Number(segment) : segment;
    if (Array.isArray(node) && !Number.isInteger(key)) {
      throw new CliError(
        'USAGE',
        `--set path \`${segments.slice(0, i + 1).join('.')}\` indexes an array with \`${segment}\`; use a number.`,
      );
    }
    const container = node as Record<string | number, Json>;
    if (last) {
      container[key] = parseSetValue(assignment.slice(at + 1));
      return;
    }
    const next = container[key];
    if (next === null || typeof next !== 'object') container[key] = /^\d+$/.test(segments[i + 1]!) ? [] : {};
    node = container[key] as Record<string, Json> | Json[];
  }
}
