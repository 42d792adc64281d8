import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** One route of the table: the methods it answers (with aliases), its path templates, and its handler. */
export interface ApiRoute {
  methods: readonly string[];
  /** Express-style templates (`/v1/contacts/:id`); the first names the route (`req.route.path`, telemetry). */
  paths: readonly string[];
  handle: RequestHandler;
}

/** A template as segments: lower-cased literals, or the name of a parameter. */
type Segment = { literal: string } | { param: string };

interface Candidate {
  segments: Segment[];
  route: { path: string };
  handle: RequestHandler;
}

/** Express's router turns a parameter it cannot decode into this 400 (checkPercentEncoding answers it first). */
function decodeParam(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch (error) {
    if (error instanceof URIError) Object.assign(error, { message: `Failed to decode param '${raw}'`, status: 400 });
    throw error;
  }
}

/** The path's segments after the leading slash, one trailing slash dropped (`/v1/contacts/` is `/v1/contacts`). */
function segmentsOf(path: string): string[] {
  const segments = path.split('/');
  if (segments.length > 2 && segments.at(-1) === '') segments.pop();
  return segments.slice(1);
}

function matches(segments: readonly Segment[], parts: readonly string[], lower: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if ('literal' in segment ? segment.literal !== lower[i] : parts[i] === '') return false;
  }
  return true;
}

/**
 * Every API route as one middleware: a table by method and number of segments, so a request is matched
 * against the few templates of its shape, where Express's router ran the path-to-regexp of each of the
 * hundred-odd route layers in turn before every API answer (issue 25, point 8). It matches as that router
 * did: literals case-insensitively, an optional trailing slash, each parameter one non-empty segment,
 * percent-decoded; the first route in table order wins; a GET route answers HEAD. Anything else goes on to
 * `next()` (the 404 envelope).
 */
export function apiRoutes(routes: readonly ApiRoute[]): RequestHandler {
  const table = new Map<string, Candidate[][]>();
  for (const { methods, paths, handle } of routes) {
    const route = { path: paths[0]! };
    for (const method of methods) {
      const bySize = table.get(method) ?? [];
      table.set(method, bySize);
      for (const path of paths) {
        const segments = segmentsOf(path).map(
          (part): Segment => (part.startsWith(':') ? { param: part.slice(1) } : { literal: part.toLowerCase() }),
        );
        (bySize[segments.length] ??= []).push({ segments, route, handle });
      }
    }
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const candidates = table.get(req.method === 'HEAD' && !table.has('HEAD') ? 'GET' : req.method);
    if (!candidates) return next();
    const parts = segmentsOf(req.path);
    const lower = parts.map((part) => part.toLowerCase());
    for (const candidate of candidates[parts.length] ?? []) {
      if (!matches(candidate.segments, parts, lower)) continue;
      const params: Record<string, string> = {};
      try {
        for (const [i, segment] of candidate.segments.entries()) {
          if ('param' in segment) params[segment.param] = decodeParam(parts[i]!);
        }
      } catch (error) {
        return next(error);
      }
      req.params = params;
      (req as Request & { route: unknown }).route = candidate.route;
      // As Express 5 does with a handler's promise: a rejection goes to the error handler.
      const answered: unknown = candidate.handle(req, res, next);
      if (answered instanceof Promise) answered.catch((error: unknown) => next(error ?? new Error('Rejected promise')));
      return;
    }
    next();
  };
}
