import { z } from 'zod';
import { EVENT_NAMES, eventSchemas, type EventName } from '../../events/index.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../signature/index.js';
import { Timestamp } from '../../resources/common.js';
import type { JsonSchema, SchemaConverter } from './json-schema.js';

const DELIVERY_HEADERS: [string, string, z.ZodType][] = [
  [
    SIGNATURE_HEADER,
    '`sha256=<hex>`: HMAC-SHA256 with the endpoint secret over `<timestamp>.<rawBody>`',
    z.string().startsWith('sha256='),
  ],
  [TIMESTAMP_HEADER, 'Unix seconds used in the signature', z.string().regex(/^\d+$/)],
  [
    DELIVERY_HEADER,
    'Delivery id, the same on every retry: store it before processing (at-least-once delivery)',
    z.string().startsWith('dlv_'),
  ],
  [EVENT_HEADER, 'The event name, equal to the body `event`', z.string()],
];

/** The envelope of one event, with its `data` schema. */
function envelope(name: EventName, schemas: SchemaConverter): JsonSchema {
  const body = z.looseObject({
    id: z.string(),
    event: z.literal(name),
    created_at: Timestamp,
    data: eventSchemas[name],
  });
  return schemas.convert(body, 'output');
}

/** The `webhooks` section: the signed POST the service sends for each of the events. */
export function webhookOperations(schemas: SchemaConverter): Record<string, JsonSchema> {
  return Object.fromEntries(
    EVENT_NAMES.map((name) => [
      name,
      {
        post: {
          operationId: `webhook.${name}`,
          summary: `The ${name} event, delivered to a registered endpoint`,
          parameters: DELIVERY_HEADERS.map(([header, description, schema]) => ({
            name: header,
            in: 'header',
            required: true,
            description,
            schema: schemas.convert(schema, 'input'),
          })),
          requestBody: { required: true, content: { 'application/json': { schema: envelope(name, schemas) } } },
          responses: {
            '2XX': {
              description:
                'Accepted: answer within 8 seconds, or the delivery is retried (about 1 and 10 minutes later)',
            },
            '401': { description: 'Signature or timestamp invalid' },
          },
        },
      },
    ]),
  );
}
