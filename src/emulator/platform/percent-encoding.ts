import type { NextFunction, Request, Response } from 'express';
import { ApiFailure } from '../api-failure.js';
import { sendFailure } from './send-failure.js';

/** At most this many details: enough to fix a URL, bounded whatever the caller sent. */
const MAX_DETAILS = 10;

type Detail = { in: 'params' | 'query'; path: string; message: string };

function decodes(raw: string): boolean {
  try {
    decodeURIComponent(raw);
    return true;
  } catch {
    return false;
  }
}

function quoted(raw: string): string {
  return JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);
}

const notUtf8 = (raw: string) => `${quoted(raw)} is not valid percent-encoded UTF-8`;

/** The `:name` each segment of `path` fills in `template`, or undefined when the template does not match. */
function paramNames(template: string[], segments: string[]): (string | null)[] | undefined {
  if (template.length !== segments.length) return undefined;
  const names: (string | null)[] = [];
  for (const [i, part] of template.entries()) {
    if (part.startsWith(':')) names.push(part.slice(1));
    else if (part.toLowerCase() === segments[i]!.toLowerCase()) names.push(null);
    else return undefined;
  }
  return names;
}

function pathDetails(templates: readonly string[][], path: string): Detail[] {
  const segments = path.replace(/(.)\/$/, '$1').split('/');
  if (segments.every(decodes)) return [];
  // Only a route's own parameter is decoded; a path no route matches stays the 404 it is.
  for (const template of templates) {
    const names = paramNames(template, segments);
    if (!names) continue;
    return segments.flatMap((raw, i) =>
      names[i] && !decodes(raw) ? [{ in: 'params' as const, path: names[i], message: notUtf8(raw) }] : [],
    );
  }
  return [];
}

function queryDetails(query: string): Detail[] {
  const details: Detail[] = [];
  for (const pair of query.split('&')) {
    if (details.length === MAX_DETAILS) break;
    const at = pair.indexOf('=');
    const [key, value] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    const keyText = key.replace(/\+/g, ' ');
    const name = decodes(keyText) ? decodeURIComponent(keyText) : key;
    if (!decodes(keyText)) details.push({ in: 'query', path: name, message: `the name ${notUtf8(key)}` });
    else if (!decodes(value.replace(/\+/g, ' '))) details.push({ in: 'query', path: name, message: notUtf8(value) });
  }
  return details;
}

/**
 * Refuses a URL whose route parameters or query are not valid percent-encoded UTF-8 with 400
 * VALIDATION_FAILED naming each one (docs/errors.md), before the router would decode them: Express
 * alone answers such a parameter without saying which, and lets a broken query through as other bytes.
 * `templates` are the routes' paths, Express style (`/v1/contacts/:id`).
 */
export function checkPercentEncoding(templates: readonly string[]) {
  const split = templates.map((t) => t.split('/'));
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!req.url.includes('%')) return next();
    const at = req.url.indexOf('?');
    const details = [...pathDetails(split, req.path), ...(at === -1 ? [] : queryDetails(req.url.slice(at + 1)))].slice(
      0,
      MAX_DETAILS,
    );
    if (details.length === 0) return next();
    sendFailure(res, new ApiFailure('VALIDATION_FAILED', 'The URL is not valid percent-encoding', { details }));
  };
}
