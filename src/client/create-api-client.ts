import { ConvoKitError } from '../errors.js';
import { callEndpoint } from './call-endpoint.js';
import { type ClientOptions, isTestKey, resolveSettings } from './client-options.js';
import { type ApiClient, type ApiTable } from './client-types.js';
import { markClientTable } from './client-table.js';
import { clientTelemetry } from '../telemetry/client-telemetry.js';

const RESERVED = new Set(['isTestKey', 'baseUrl']);

/**
 * A client over any contract table, built by one loop: each `group.name` endpoint becomes
 * `client.group.name(input, options)`. `createClient` is this over the service's own table.
 */
export function createApiClient<const T extends ApiTable>(table: T, options: ClientOptions): ApiClient<T> {
  const settings = { ...resolveSettings(options), telemetry: clientTelemetry() };
  const testKey = isTestKey(settings.apiKey);
  const client: Record<string, unknown> = { isTestKey: testKey, baseUrl: settings.baseUrl };
  for (const [group, defs] of Object.entries(table)) {
    if (RESERVED.has(group))
      throw new ConvoKitError('INVALID_TABLE', `Endpoint group \`${group}\` collides with a client property`);
    const methods: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(defs)) {
      methods[name] = (input?: unknown, callOptions?: Parameters<typeof callEndpoint>[4]) =>
        callEndpoint(settings, `${group}.${name}`, def, input, callOptions);
    }
    client[group] = Object.freeze(methods);
  }
  if (testKey) {
    settings.logger.info(
      { keyKind: 'test' },
      'convo-kit client uses a test key: sends answer synthetic 201s, nothing is delivered, other routes answer 403',
    );
  }
  markClientTable(client, { table, maxPages: settings.maxPages, logger: settings.logger });
  return Object.freeze(client) as ApiClient<T>;
}
