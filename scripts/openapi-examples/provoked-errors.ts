import type { RecordedAnswer } from '../../src/api/openapi/recorded-examples.js';
import type { Plan } from '../../src/api/plans.js';
import { SEED_IDS } from '../../src/emulator/index.js';
import type { DocumentOperation, Json } from './example-requests.js';
import type { Recorder } from './recorder.js';

/** Over the service's JSON body limit (1 MiB), for a real 413. */
const OVER_BODY_LIMIT_BYTES = 1024 * 1024 + 1;

/** Over the limit of the request line and headers (16 KiB), for a real 431. */
const OVER_HEADER_LIMIT_BYTES = 17 * 1024;

/**
 * A request for each shared error response (`components.responses`) that one can provoke cheaply, on an
 * operation whose document names that response for that status. The rest keep the example built from the
 * schema (src/api/openapi/examples.ts): `Error` (any failure), 408 (an upload stalled for 10 s), 500 (an
 * unexpected failure, which no request makes on purpose), 503 (every parse process busy) and the 400 of
 * `GET /v1/status`, which takes no input to refuse.
 */
export const PROVOKED: readonly {
  response: string;
  operation: string;
  status: number;
  /** Provoked on an emulator of this plan. @default the emulator's default */
  plan?: Plan;
  send: (recorder: Recorder, operation: DocumentOperation) => Promise<RecordedAnswer>;
}[] = [
  {
    response: 'Error400',
    operation: 'tickets.update',
    status: 400,
    send: (r, o) => r.call(o, { body: { priority: 'whenever', status: 'lost' } }),
  },
  {
    response: 'Error401',
    operation: 'tickets.list',
    status: 401,
    send: (r) => r.send('GET', '/v1/tickets', { key: null }),
  },
  {
    response: 'Error403',
    operation: 'tickets.list',
    status: 403,
    // A key that may read messages and nothing else.
    send: async (r) => {
      const made = await r.send('POST', '/v1/keys', {
        body: { label: 'Message reader', scopes: ['messages:read'], kind: 'live' },
      });
      return r.send('GET', '/v1/tickets', { key: String((made.body as Json).key) });
    },
  },
  {
    response: 'Error404',
    operation: 'tickets.get',
    status: 404,
    send: (r) => r.send('GET', '/v1/tickets/tkt_does_not_exist'),
  },
  {
    response: 'Error404Replayable',
    operation: 'conversations.sendMessage',
    status: 404,
    send: (r) =>
      r.send('POST', '/v1/conversations/conv_does_not_exist/messages', {
        body: { content: 'Your order shipped today' },
        headers: { 'idempotency-key': 'example-404' },
      }),
  },
  {
    response: 'Error409',
    operation: 'tickets.update',
    status: 409,
    // A version the seeded ticket has moved past.
    send: (r, o) => r.call(o, { headers: { 'if-match': '"0"' } }),
  },
  {
    response: 'Error409Replayable',
    operation: 'messages.send',
    status: 409,
    // The same Idempotency-Key again, with another body.
    send: async (r, o) => {
      await r.call(o);
      return r.call(o, { body: { conversation_id: SEED_IDS.delivered.conversation, content: 'Another text' } });
    },
  },
  {
    response: 'Error413',
    operation: 'tickets.update',
    status: 413,
    send: (r) =>
      r.send('PATCH', '/v1/tickets/tkt_seed_00001', {
        raw: { text: JSON.stringify({ resolution: 'x'.repeat(OVER_BODY_LIMIT_BYTES) }), type: 'application/json' },
      }),
  },
  {
    response: 'Error415',
    operation: 'tickets.update',
    status: 415,
    send: (r) => r.send('PATCH', '/v1/tickets/tkt_seed_00001', { raw: { text: 'status=pending', type: 'text/plain' } }),
  },
  {
    response: 'Error422',
    operation: 'templates.submit',
    status: 422,
    // An approved template is not submitted again.
    send: (r) => r.send('POST', `/v1/templates/${SEED_IDS.templates.approved}/submit`, { body: {} }),
  },
  {
    response: 'Error422Replayable',
    operation: 'messages.send',
    status: 422,
    send: (r, o) =>
      r.call(o, { body: { conversation_id: SEED_IDS.optedOut.conversation, content: 'Your order shipped today' } }),
  },
  {
    response: 'Error429',
    operation: 'pipeline.listStages',
    status: 429,
    // The free plan's 30 requests in this minute (the clock stands still), then one more: the default
    // plan's 600 would make the recording seconds slower.
    plan: 'free',
    send: async (r) => {
      for (;;) {
        const sent = await r.send('GET', '/v1/pipeline/stages');
        if (sent.status !== 200) return sent;
      }
    },
  },
  {
    response: 'Error431',
    operation: 'tickets.list',
    status: 431,
    send: (r) => r.send('GET', '/v1/tickets', { headers: { 'x-padding': 'x'.repeat(OVER_HEADER_LIMIT_BYTES) } }),
  },
  {
    response: 'Error431NoKey',
    operation: 'status.get',
    status: 431,
    send: (r) =>
      r.send('GET', '/v1/status', { key: null, headers: { 'x-padding': 'x'.repeat(OVER_HEADER_LIMIT_BYTES) } }),
  },
];

/** The response component an operation's answer of `status` refers to. */
export function responseNameOf(operation: DocumentOperation, status: number): string | undefined {
  const response = (operation.op.responses as Record<string, { $ref?: string }>)[String(status)];
  return response?.$ref?.split('/').pop();
}
