import { type z } from 'zod';
import { type EndpointDef, type EndpointGroup } from '../api/endpoint.js';
import { type ApiPromise } from './api-promise.js';
import { type RequestOptions } from './client-options.js';
import { type HeaderOptionName } from './header-options.js';
import type { Page } from '../api/schemas/page.js';
import { type PagePromise } from './page-promise.js';

/** A contract table: groups of endpoints keyed by method name (`{ tickets: { get, update } }`). */
export type ApiTable = Record<string, EndpointGroup>;

type Simplify<T> = { [K in keyof T]: T[K] } & unknown;

/**
 * z.input of a part, except where that is `unknown` (a preprocessed schema, as `queryInteger` for `limit`,
 * which the server reads from a query string): there the caller passes what the schema produces
 * (`limit?: number`).
 */
type WireInput<S extends z.ZodType> = {
  [K in keyof z.input<S>]: unknown extends z.input<S>[K]
    ? K extends keyof z.output<S>
      ? z.output<S>[K]
      : unknown
    : z.input<S>[K];
};

type InputOf<E, Part extends 'params' | 'query' | 'body'> = E extends { [P in Part]: infer S extends z.ZodType }
  ? WireInput<S>
  : unknown;

type HeaderOptions<E> = E extends { headers: infer H extends z.ZodObject }
  ? { [K in keyof z.input<H> as HeaderOptionName<K & string>]: z.input<H>[K] }
  : unknown;

type IdempotencyOption<E> = E extends { idempotencyKey: 'required' }
  ? {
      /** 1-200 characters; a UUID is generated when absent. The same key is sent on every retry of this call. */
      idempotencyKey?: string;
    }
  : unknown;

/** The one input object of a method: path params, query and body keys, plus header options (`ifMatch`) and `idempotencyKey`. */
export type EndpointInput<E extends EndpointDef> = Simplify<
  InputOf<E, 'params'> & InputOf<E, 'query'> & InputOf<E, 'body'> & HeaderOptions<E> & IdempotencyOption<E>
>;

/** What a method resolves to: the parsed response. */
export type EndpointOutput<E extends EndpointDef> = z.output<E['response']>;

/** The item type of a paginated endpoint. */
export type EndpointItem<E extends EndpointDef> = EndpointOutput<E> extends { data: (infer I)[] } ? I : never;

type Args<E extends EndpointDef, O> =
  Partial<EndpointInput<E>> extends EndpointInput<E>
    ? [input?: EndpointInput<E>, options?: O]
    : [input: EndpointInput<E>, options?: O];

/** One method of the client, derived from one endpoint; `O` its per-call options. */
export type EndpointMethod<E extends EndpointDef, O = RequestOptions> = (
  ...args: Args<E, O>
) => E extends { paginated: true }
  ? EndpointOutput<E> extends infer P extends Page<EndpointItem<E>>
    ? PagePromise<EndpointItem<E>, P>
    : never
  : ApiPromise<EndpointOutput<E>>;

/** A client over a table: `client.<group>.<method>(input, options)`, `O` the per-call options. */
export type ApiClient<T extends ApiTable, O = RequestOptions> = {
  readonly [G in keyof T]: {
    readonly [M in keyof T[G]]: T[G][M] extends EndpointDef ? EndpointMethod<T[G][M], O> : never;
  };
} & {
  /** True for a `svc_test_` key: sends are synthetic and nothing is delivered (spec, Authentication 3). */
  readonly isTestKey: boolean;
  /** The normalised base address table paths are appended to (`…/api/v1` -> `…/api`). */
  readonly baseUrl: string;
};
