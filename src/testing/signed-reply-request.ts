import { REPLY_PROTOCOL_VERSION, REPLY_RESPONSE_SCHEMA, type CustomReplyRequest } from '../api/schemas/custom-reply.js';
import { signingHeaders, type SigningHeaders } from '../signature/index.js';

export interface SignedReplyRequestInput {
  secret: string;
  /** Fields of the request to set; the rest come from a sample (a customer asking about opening hours). */
  request?: Partial<CustomReplyRequest>;
  /** A raw body to sign instead of a request (to test malformed ones). */
  body?: string;
  /** Unix seconds. @default now */
  timestamp?: number;
}

export interface SignedReplyRequest {
  /** The exact bytes to send: the signature covers them. */
  body: string;
  headers: SigningHeaders;
  /** The request the body was made from (undefined when a raw body was given). */
  request: CustomReplyRequest | undefined;
}

/** A well-formed custom reply request: a customer's question, one knowledge entry, the contact as tool context. */
export function sampleReplyRequest(overrides: Partial<CustomReplyRequest> = {}): CustomReplyRequest {
  return {
    version: REPLY_PROTOCOL_VERSION,
    task: 'reply',
    reply_instructions: 'You reply for Acme Outdoor. Tone: friendly. Language: en.',
    conversation_history: [
      { role: 'customer', content: 'Hi! When are you open on Saturday?', created_at: new Date().toISOString() },
    ],
    verified_knowledge: [
      {
        entry_id: 'kn_hours',
        type: 'faq',
        title: 'Opening hours',
        content: 'We are open Monday to Saturday, 9:00 to 18:00.',
      },
    ],
    verified_tool_context: [{ tool: 'contact', data: { name: 'Ada', lead_stage: 'new' }, actions: [] }],
    response_schema: REPLY_RESPONSE_SCHEMA,
    ...overrides,
  };
}

/**
 * A custom reply request exactly as the service would POST it, signed with the provider's secret:
 * for your own tests.
 * @example
 * const { body, headers } = signedReplyRequest({ secret, request: { task: 'comment_reply' } });
 * const res = await request(app).post('/reply').set(headers).send(body).expect(200);
 */
export function signedReplyRequest(input: SignedReplyRequestInput): SignedReplyRequest {
  const request = input.body === undefined ? sampleReplyRequest(input.request) : undefined;
  const body = input.body ?? JSON.stringify(request);
  return { body, headers: signingHeaders({ secret: input.secret, body, timestamp: input.timestamp }), request };
}
