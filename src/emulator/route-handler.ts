import type { z } from 'zod';
import type Database from 'better-sqlite3';
import type { LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import type { EndpointGroupName } from '../api/all-endpoints.js';
import type { EndpointDef, EndpointGroup } from '../api/endpoint.js';
import type { Endpoints } from '../api/endpoints/index.js';
import type { Plan } from '../api/plans.js';
import type { Scope } from '../api/scopes.js';
import type { EventName, EventData } from '../events/index.js';
import type { AiReplyJobs } from './ai-reply/ai-reply-queue.js';
import type { JsonText } from './state/json-text.js';

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** The key a request authenticated with (after revocation, grace and test-key rules were applied). */
export interface AuthenticatedKey {
  id: string;
  kind: 'live' | 'test';
  scopes: readonly Scope[];
  /** True for the emulator's admin key (all scopes, and `/_emulator/*`). */
  admin: boolean;
}

/** A validated request, typed from the endpoint's schemas. */
export interface RouteRequest<E extends EndpointDef> {
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: Out<E['body']>;
  headers: Out<E['headers']>;
  key: AuthenticatedKey;
  requestId: string;
}

/**
 * A handler answers the body (with the endpoint's declared status), already as JSON text (a list page of stored
 * documents), or a full reply when it sets headers.
 */
export type RouteReply<E extends EndpointDef> =
  | z.input<E['response']>
  | JsonText<z.input<E['response']>>
  | { status: number; body: z.input<E['response']> | undefined; headers?: Record<string, string>; reply: true };

export type RouteHandler<E extends EndpointDef> = (
  req: RouteRequest<E>,
  ctx: EmulatorContext,
) => RouteReply<E> | Promise<RouteReply<E>>;

/** One handler per endpoint of a group: a missing one is a compile error (`satisfies RouteHandlers<…>`). */
export type RouteHandlers<G extends EndpointGroup> = { [K in keyof G]: RouteHandler<G[K]> };

/** The registry the app is built from: one handler object per group of the table, so a missing group or route fails to compile. */
export type RouteHandlerTable = { [G in EndpointGroupName]: RouteHandlers<Endpoints[G]> };

export function reply<E extends EndpointDef>(
  status: number,
  body: z.input<E['response']> | undefined,
  headers?: Record<string, string>,
): RouteReply<E> {
  return { status, body, headers, reply: true };
}

/** The emulator's clock: every time-based rule reads it; `/_emulator/clock` moves it. */
export interface Clock {
  /** Milliseconds since the epoch, including any advance. */
  now(): number;
  /** ISO-8601 UTC of now(). */
  iso(): string;
  advance(seconds: number): void;
}

/** Announces a state change to every subscribed webhook endpoint; never blocks the caller. */
export interface EventBus {
  emit<N extends EventName>(event: N, data: EventData<N>): void;
}

/** Everything a handler may touch. */
export interface EmulatorContext {
  db: Database.Database;
  clock: Clock;
  events: EventBus;
  plan: Plan;
  /** A new prefixed id, e.g. newId('tkt') -> 'tkt_…'. */
  newId(prefix: string): string;
  /** Where AI reply calls run, off the request path and bounded. */
  aiReplies: AiReplyJobs;
  /** The outbound scheduler (journey steps, campaigns): `wake()` after queuing work, so it runs soon and off the request. */
  outbound: { wake(): void };
  /** The emulator's logger (`EmulatorOptions.logger`), for what happens off the request path (AI replies, the scheduler). */
  logger: Logger;
  /** The resolver under the custom reply calls' address check (`EmulatorOptions.resolveHost`, as the dispatcher's for webhooks). */
  resolveHost?: LookupFunction;
}
