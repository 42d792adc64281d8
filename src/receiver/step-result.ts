import { MAX_STEP_RESULT_BYTES } from '../store/step-journal.js';
import { ReceiverError } from './receiver-error.js';

/** Nesting deeper than this is refused (JSON that deep is a bug, and the walk must be bounded). */
const MAX_DEPTH = 64;

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'object' || value === null) return `a ${typeof value}`;
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name ? `a ${name}` : 'an object';
}

const pathOf = (path: string) => (path === '' ? '' : ` at ${path}`);

/**
 * The first part of `value` that would not come back from JSON as it went in, or undefined when it all
 * would. A Date would come back a string, a Map an empty object, NaN null: a later attempt would get a
 * different value from the first, so they are refused rather than changed. Undefined object fields are
 * allowed (JSON leaves them out, and reading one gives undefined either way). Visits at most
 * MAX_STEP_RESULT_BYTES values: JSON spends at least a byte on each, so a larger one is too large anyway.
 */
function notJson(value: unknown): string | undefined {
  let budget = MAX_STEP_RESULT_BYTES;
  const parents = new Set<object>();
  const walk = (v: unknown, path: string, depth: number): string | undefined => {
    if (--budget < 0) return undefined;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return undefined;
    if (typeof v === 'number') return Number.isFinite(v) ? undefined : `${describe(v)}${pathOf(path)}`;
    if (typeof v !== 'object') return `${describe(v)}${pathOf(path)}`;
    if (depth > MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH}${pathOf(path)}`;
    if (parents.has(v)) return `a circular reference${pathOf(path)}`;
    const isArray = Array.isArray(v);
    const proto = Object.getPrototypeOf(v) as unknown;
    if (!isArray && proto !== Object.prototype && proto !== null) return `${describe(v)}${pathOf(path)}`;
    parents.add(v);
    try {
      if (isArray) {
        for (let i = 0; i < v.length; i++) {
          if (v[i] === undefined) return `undefined${pathOf(`${path}[${i}]`)}`;
          const problem = walk(v[i], `${path}[${i}]`, depth + 1);
          if (problem) return problem;
        }
        return undefined;
      }
      for (const [key, item] of Object.entries(v)) {
        if (item === undefined) continue;
        const problem = walk(item, `${path}.${key}`, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    } finally {
      parents.delete(v);
    }
  };
  return walk(value, '', 0);
}

/**
 * A step's result as the journal keeps it (JSON text; null for `undefined`), or a ReceiverError naming the
 * step and what is wrong: not JSON, or larger than MAX_STEP_RESULT_BYTES.
 */
export function stepResultText(name: string, value: unknown): string | null {
  if (value === undefined) return null;
  const problem = notJson(value);
  if (problem !== undefined) {
    throw new ReceiverError(
      'STEP_RESULT_NOT_JSON',
      `Step "${name}" returned ${problem}: a step's result is journaled as JSON (plain objects, arrays, strings, finite numbers, booleans, null), so that a later attempt gets back exactly what this one did; convert it first (a Date with toISOString())`,
    );
  }
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_STEP_RESULT_BYTES) {
    throw new ReceiverError(
      'STEP_RESULT_TOO_LARGE',
      `Step "${name}" returned ${bytes} bytes of JSON; the journal keeps at most ${MAX_STEP_RESULT_BYTES} (MAX_STEP_RESULT_BYTES): return what later steps need (an id, a status), not a whole resource or list`,
    );
  }
  return text;
}

/** A journaled result back as a value. */
export const stepResultValue = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));
