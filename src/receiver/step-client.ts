import type { Endpoints } from '../api/endpoints/index.js';
import type { Page } from '../api/schemas/page.js';
import { ApiPromise, type WithResponse } from '../client/api-promise.js';
import type { RequestOptions } from '../client/client-options.js';
import { clientTableOf } from '../client/client-table.js';
import type { ApiClient } from '../client/client-types.js';
import type { Client } from '../client/create-client.js';
import { PagePromise } from '../client/page-promise.js';
import type { StepRunner } from './step-runner.js';

/** A call's options through `ctx.client`: the client's own, and the step's name. */
export interface StepCallOptions extends RequestOptions {
  /**
   * The call's step name, instead of its route id and ordinal in this run (`messages.send:1`): give one
   * when the calls a handler makes can change order between attempts.
   */
  step?: string;
}

/** `ctx.client`: the receiver's client, each call a journaled step of the event (README "Effects, exactly once"). */
export type StepClient = ApiClient<Endpoints, StepCallOptions>;

type Method = (input?: unknown, options?: RequestOptions) => ApiPromise<unknown>;
type Input = Record<string, unknown>;

const hasKeyHeader = (headers: RequestOptions['headers']) =>
  headers !== undefined &&
  (headers instanceof Headers
    ? headers.has('idempotency-key')
    : Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key'));

/** Is this a client that createClient (or createApiClient) made? The receiver checks its `client` option with it. */
export const isTableClient = (client: unknown): boolean => clientTableOf(client) !== undefined;

/**
 * `client` bound to one attempt's steps: every call runs as a step, named by its route id and ordinal (or
 * the caller's `step`); its `{ data, response }` is journaled, so a later attempt gets the same answer
 * without calling again. On routes that take an Idempotency-Key (the contract table says which) the key is
 * the step's own, derived from the event, unless the caller gives one. Calls get the handler's abort signal
 * unless they pass their own. A paginated call's pages are steps too (`…/page 2`, …).
 */
export function stepClient(client: Client, runner: StepRunner, signal: AbortSignal): StepClient {
  const from = clientTableOf(client)!;
  const bound: Record<string, unknown> = { isTestKey: client.isTestKey, baseUrl: client.baseUrl };
  for (const [group, defs] of Object.entries(from.table)) {
    const bare = (client as unknown as Record<string, Record<string, Method>>)[group]!;
    const methods: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(defs)) {
      const id = `${group}.${name}`;
      methods[name] = (input?: unknown, options?: StepCallOptions) => {
        const { step, ...rest } = options ?? {};
        const callOptions: RequestOptions = { ...rest, signal: rest.signal ?? signal };
        const stepName = step ?? `${id}:${runner.ordinal(id)}`;
        let keyed = input;
        if (def.idempotencyKey === 'required' && !hasKeyHeader(rest.headers)) {
          const given = typeof input === 'object' && input !== null ? (input as Input) : {};
          if (given.idempotencyKey === undefined) keyed = { ...given, idempotencyKey: runner.idempotencyKey(stepName) };
        }
        const call = (value: unknown) => () => bare[name]!(value, callOptions).withResponse();
        const first = runner.step(stepName, call(keyed));
        if (!def.paginated) return new ApiPromise(first);
        const base = typeof keyed === 'object' && keyed !== null ? (keyed as Input) : {};
        // Each page once per walk, as a step of its own; walking again reads the same steps' results.
        const pages = new Map<string, Promise<WithResponse<Page<unknown>>>>();
        return new PagePromise(first as Promise<WithResponse<Page<unknown>>>, {
          endpoint: id,
          startCursor: typeof base.cursor === 'string' ? base.cursor : null,
          maxPages: from.maxPages,
          logger: from.logger,
          next: (cursor) => {
            let page = pages.get(cursor);
            if (!page) {
              page = runner.step(`${stepName}/page ${pages.size + 2}`, call({ ...base, cursor })) as Promise<
                WithResponse<Page<unknown>>
              >;
              pages.set(cursor, page);
            }
            return page;
          },
        });
      };
    }
    bound[group] = Object.freeze(methods);
  }
  return Object.freeze(bound) as StepClient;
}
