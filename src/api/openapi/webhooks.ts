import { z } from 'zod';
import { EVENT_NAMES, eventSchemas, type EventName } from '../events/catalog.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../signature/index.js';
import { Timestamp } from '../schemas/common.js';
import { Signature } from '../schemas/webhook-endpoint.js';
import type { JsonSchema, SchemaConverter } from './json-schema.js';

const DELIVERY_HEADERS: [string, string, z.ZodType][] = [
  [SIGNATURE_HEADER, '`sha256=<hex>`: HMAC-SHA256 with the endpoint secret over `<timestamp>.<rawBody>`', Signature],
  [TIMESTAMP_HEADER, 'Unix seconds used in the signature', z.string().regex(/^\d+$/)],
  [
    DELIVERY_HEADER,
    'Delivery id, the same on every retry: store it before processing (at-least-once delivery)',
    z.string().startsWith('dlv_'),
  ],
  [EVENT_HEADER, 'The event name, equal to the body `event`', z.enum(EVENT_NAMES)],
];

/** `components.parameters`: the headers of every delivery, by name. */
export function deliveryHeaderParameters(schemas: SchemaConverter): Record<string, JsonSchema> {
  return Object.fromEntries(
    DELIVERY_HEADERS.map(([header, description, schema]) => [
      header,
      { name: header, in: 'header', required: true, description, schema: schemas.convert(schema, 'input') },
    ]),
  );
}

/** The tag of the `webhooks` section, apart from the routes' groups. */
export const WEBHOOK_TAG = {
  name: 'webhook events',
  description:
    'What the service POSTs to each registered webhook endpoint: one signed delivery per event, at least once',
};

/** When each event fires (the spec's event table); a new event does not compile until it says. */
const FIRES_WHEN: Readonly<Record<EventName, string>> = {
  'message.received': 'a customer sends a message on any of the three channels',
  'message.sent': 'an outbound message leaves from AI, dashboard, API, automation or journey',
  'message.delivery_failed': 'a provider rejects or fails delivery after retries',
  'conversation.created': 'a conversation opens from inbound traffic, coexistence or a journey',
  'conversation.closed': 'a conversation is resolved manually or by automation',
  'conversation.assigned': 'ownership changes by manual assignment or routing rules',
  'contact.updated': 'lead extraction or CRM sync updates a contact',
  'contact.opted_out': 'a contact opts out, for example by replying with a stop word',
  'contact.opted_in': 'an opted-out contact opts in again, for example by replying with a start word',
  'template.status_update': 'the provider reports a template review or quality status change',
  'ticket.created': 'a support ticket is created from a handoff or review',
  'ticket.updated': 'ticket status, priority or assignment changes',
  'ticket.assigned': 'ticket ownership changes',
  'ticket.closed': 'a support ticket is resolved',
};

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
          description:
            `Fires when ${FIRES_WHEN[name]}. Verify X-Service-Signature over \`<timestamp>.<rawBody>\` before ` +
            'trusting the body, and store X-Service-Delivery before processing: a delivery may come more than once.',
          tags: [WEBHOOK_TAG.name],
          parameters: DELIVERY_HEADERS.map(([header]) => ({ $ref: `#/components/parameters/${header}` })),
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
