import { DEFAULT_IN_FLIGHT_BYTES } from './body-budget.js';
import { integerOption } from './integer-option.js';

/** How much body an endpoint the service signs takes in: per request, across requests, and how long it waits. */
export interface BodyBounds {
  maxBodyBytes: number;
  maxInFlightBytes: number;
  bodyTimeoutMs: number;
}

/** The receiver's and the reply endpoint's body options, checked alike; only the timeout's default differs. */
export function bodyBoundsOption(
  options: Partial<Record<keyof BodyBounds, unknown>>,
  bodyTimeoutMs: number,
): BodyBounds {
  const maxBodyBytes = integerOption('maxBodyBytes', options.maxBodyBytes, 1024 * 1024);
  return {
    maxBodyBytes,
    // Below maxBodyBytes, a body the limit allows could never be read.
    maxInFlightBytes: integerOption(
      'maxInFlightBytes',
      options.maxInFlightBytes,
      Math.max(DEFAULT_IN_FLIGHT_BYTES, maxBodyBytes),
      { min: maxBodyBytes },
    ),
    bodyTimeoutMs: integerOption('bodyTimeoutMs', options.bodyTimeoutMs, bodyTimeoutMs),
  };
}
