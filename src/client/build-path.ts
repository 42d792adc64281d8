import { type FieldIssue } from './client-errors.js';

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Fills `:name` segments with percent-encoded values. `.` and `..` survive encodeURIComponent and would
 * move the request to another route (`/v1/tickets/..` is `/v1`), so they are refused, as is an empty segment.
 */
export function buildPath(template: string, params: Record<string, unknown>): { path: string; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const path = template.replace(PARAM, (_match, name: string) => {
    const value = params[name];
    const text =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined;
    if (text === undefined) {
      issues.push({
        path: name,
        message: `path parameter is required (string), got ${value === undefined ? 'nothing' : typeof value}`,
      });
    } else if (text === '' || text === '.' || text === '..') {
      issues.push({ path: name, message: `path segment must not be empty, "." or "..", got "${text}"` });
    }
    return encodeURIComponent(text ?? '');
  });
  return { path, issues };
}

/** The `:name` parameters a path template declares. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(PARAM)].map((m) => m[1] as string);
}
