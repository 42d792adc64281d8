import { type ResponseMeta } from './response-meta.js';

export interface WithResponse<T> {
  data: T;
  response: ResponseMeta;
}

/**
 * What every method returns: a promise of the parsed data, plus `.withResponse()` for the metadata
 * (request id, rate limit, Idempotent-Replayed, ETag). The request starts at once, like a plain promise.
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
    // A call nobody awaits must not crash the process with an unhandled rejection; awaiting still throws.
    result.catch(() => {});
  }

  /** `{ data, response }`: the same call, with its response metadata. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result.then((r) => r.data).then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return 'ApiPromise';
  }
}
