import { endpoints, type Endpoints } from '../api/endpoints/index.js';
import { type ClientOptions } from './client-options.js';
import { type ApiClient } from './client-types.js';
import { createApiClient } from './create-api-client.js';

/** The client of the whole service: one method per route of the contract table. */
export type Client = ApiClient<Endpoints>;

/**
 * Creates the typed client of the service. Every route of `src/api` is a method `client.<group>.<name>`,
 * taking one input object (path params, query and body keys, plus `ifMatch` / `idempotencyKey` where the
 * route has them) and per-call options.
 *
 * @example
 * const client = createClient({ apiKey: process.env.SERVICE_API_KEY!, baseUrl: 'https://api.example.com/v1' });
 * for await (const c of client.conversations.list({ status: 'active' })) console.log(c.id);
 * const ticket = await client.tickets.update({ id: 'tkt_1', status: 'resolved', ifMatch: '"3"' });
 */
export function createClient(options: ClientOptions): Client {
  return createApiClient(endpoints, options);
}
