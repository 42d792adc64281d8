import type { EndpointId } from '../../../src/api/all-endpoints.js';
import type { E2e } from '../harness.js';

/**
 * One route driven through the client: builds a valid input from the seeded state (looked up through
 * the client), calls the route, and asserts an outcome that proves the route did its job.
 */
export type RouteCase = (t: E2e) => Promise<void>;

/** Part of the case table (one file per resource family). */
export type RouteCases = Partial<Record<EndpointId, RouteCase>>;
