import { createHash } from 'node:crypto';
import type { OpenApiDocument } from '../../src/api/index.js';
import { EXAMPLE_REQUEST_ID } from '../../src/api/openapi/examples.js';
import type { RecordedAnswer } from '../../src/api/openapi/recorded-examples.js';
import type { Emulator } from '../../src/emulator/index.js';
import type { IdSource } from '../../src/internal/prefixed-id.js';
import {
  documentOperations,
  exampleOf,
  formData,
  successStatus,
  type DocumentOperation,
  type Json,
  type Media,
  type Parameter,
} from './example-requests.js';

/** Lists are recorded with this `limit`: a page of one and its cursor, not a whole page of resources. */
const PAGE_LIMIT = 1;

/**
 * Ids from a counter per prefix, restarted at each recorded request: `wh_…` of one request is the same
 * whatever the requests before it drew. Each id's characters are a hash of where it was drawn, so they
 * look like the CSPRNG's and keep its length.
 */
export class FixedIds {
  private scope = '';
  private readonly counters = new Map<string, number>();

  restart(scope: string): void {
    this.scope = scope;
    this.counters.clear();
  }

  readonly next: IdSource = (prefix, bytes) => {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    const blocks: Buffer[] = [];
    for (let block = 0; blocks.length * 32 < bytes; block++)
      blocks.push(createHash('sha256').update(`${this.scope}/${prefix}/${n}/${block}`).digest());
    return Buffer.concat(blocks).subarray(0, bytes).toString('base64url');
  };
}

/**
 * Where a resource the seed lacks comes from, by the path up to the parameter that names it, when that is
 * not the POST of the same path; and how its answer names it.
 */
const MADE_BY: Readonly<Record<string, { operation: string; id: (answer: Json) => unknown }>> = {
  // An enrollment's status is read by the id at the end of the trigger's `status_url`.
  '/v1/trigger/status': { operation: 'trigger.enroll', id: (answer) => String(answer.status_url).split('/').pop() },
};

/**
 * Operations whose example request needs others' done first, in the same workspace: a resource to remove,
 * or one to list where the seed has none (a list that answers nothing shows nothing).
 */
const DONE_FIRST: Readonly<Record<string, readonly string[]>> = {
  // A provider to remove: the one the PUT example configures.
  'channels.deleteProvider': ['channels.putProvider.voice'],
  'groups.deleteProvider': ['groups.putProvider.voice'],
  // An enrollment to stop: the trigger example's, of the phone QUERIES names.
  'trigger.stopEnrollments': ['trigger.enroll'],
  'campaigns.list': ['campaigns.create'],
  'channels.listProviders': ['channels.putProvider.voice'],
  'groups.listProviders': ['groups.putProvider.voice'],
  'groups.listKnowledge': ['groups.addKnowledge'],
  'journeys.list': ['journeys.create'],
  'trigger.history': ['trigger.enroll'],
  'webhooks.list': ['webhooks.create'],
  // webhooks.listDeliveries answers an empty page: an event comes after a send only once the outbound
  // scheduler has sent it, which the still clock never lets happen, and its delivery's attempt is
  // asynchronous and would connect out.
};

/** The query of operations whose example request needs one (the document has examples of path parameters only). */
const QUERIES: Readonly<Record<string, Record<string, string>>> = {
  // Which enrollments to stop: the phone or the journey is required.
  'trigger.stopEnrollments': { phone: '+14155550123' },
};

export interface SendOptions {
  body?: unknown;
  /** Sent as it is (no JSON encoding), with this content type. */
  raw?: { text: string; type: string };
  form?: FormData;
  /** The key to send; `null` for none. @default the admin key */
  key?: string | null;
  headers?: Record<string, string>;
}

/** Sends the document's example requests to one emulator, making first what they need. */
export class Recorder {
  private readonly byId: Map<string, DocumentOperation>;
  /** The answers of the operations done since the last restart, so that a path id names what one made. */
  private readonly done = new Map<string, Json>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly emulator: Emulator,
    private readonly origin: string,
  ) {
    this.byId = new Map(documentOperations(document).map((o) => [o.id, o]));
  }

  operation(id: string): DocumentOperation {
    const found = this.byId.get(id);
    if (!found) throw new Error(`No operation ${id} in the document`);
    return found;
  }

  /** One request, with the examples' X-Request-ID; the body parsed where there is one. */
  async send(method: string, url: string, options: SendOptions = {}): Promise<RecordedAnswer> {
    const headers: Record<string, string> = { 'x-request-id': EXAMPLE_REQUEST_ID, ...options.headers };
    const key = options.key === undefined ? this.emulator.adminKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | FormData | undefined;
    if (options.raw) {
      headers['content-type'] = options.raw.type;
      body = options.raw.text;
    } else if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const answer = await fetch(this.origin + url, { method: method.toUpperCase(), headers, body });
    const text = await answer.text();
    const request = `${method.toUpperCase()} ${url}`;
    return text === ''
      ? { request, status: answer.status }
      : { request, status: answer.status, body: JSON.parse(text) as unknown };
  }

  /** An operation's own example request: its path ids (made first where the seed has none) and body. */
  async call(operation: DocumentOperation, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    const { method, path, op } = operation;
    let url = path;
    for (const p of ((op.parameters ?? []) as Parameter[]).filter((p) => p.in === 'path'))
      url = url.replace(`{${p.name}}`, encodeURIComponent(p.example ?? (await this.make(path, p.name))));
    const query = new URLSearchParams(QUERIES[operation.id]);
    if (op['x-paginated'] === true) query.set('limit', String(PAGE_LIMIT));
    if (query.size > 0) url += `?${query}`;
    const headers: Record<string, string> = { ...options.headers };
    if (((op.parameters ?? []) as Parameter[]).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      headers['idempotency-key'] = `example-${operation.id}`;
    const content = (op.requestBody as Json | undefined)?.content as Record<string, Media> | undefined;
    if (content?.['multipart/form-data'])
      return this.send(method, url, {
        form: formData(exampleOf(this.document, content['multipart/form-data']) as Json),
        headers,
      });
    const example = content?.['application/json'] ? exampleOf(this.document, content['application/json']) : undefined;
    const body = options.body ?? (example === undefined ? undefined : await this.prerequisites(example as Json));
    return this.send(method, url, { body, headers });
  }

  /** Forgets what was made: the workspace is back to the seed. */
  restart(): void {
    this.done.clear();
  }

  /** An operation's example request, which must get its documented success status. */
  async succeed(id: string): Promise<RecordedAnswer> {
    const operation = this.operation(id);
    for (const first of DONE_FIRST[id] ?? []) await this.succeed(first);
    const sent = await this.call(operation);
    const status = successStatus(operation.op);
    if (sent.status !== status)
      throw new Error(
        `${operation.method.toUpperCase()} ${operation.path} (${id}) answered ${sent.status}, not ${status}: ` +
          JSON.stringify(sent.body).slice(0, 500),
      );
    this.done.set(id, sent.body as Json);
    return sent;
  }

  /** Makes the resource that `name` names in the path template `path` (up to it) and answers its id. */
  private async make(path: string, name: string): Promise<string> {
    const prefix = path.slice(0, path.indexOf(`/{${name}}`));
    const maker = MADE_BY[prefix];
    const creator = maker
      ? this.operation(maker.operation)
      : documentOperations(this.document).find((o) => o.method === 'post' && o.path === prefix);
    if (!creator) throw new Error(`No example for {${name}} of ${path}, and no POST ${prefix} to make one`);
    const made = this.done.get(creator.id) ?? ((await this.succeed(creator.id)).body as Json);
    return String(maker ? maker.id(made) : (made[name] ?? made.id));
  }

  /**
   * What a request body names that the seed has none of: a journey of its `trigger_name`, active (made with
   * the journey examples), and a webhook endpoint for a `webhook_id`.
   */
  private async prerequisites(body: Json): Promise<Json> {
    if ('trigger_name' in body && !('steps' in body)) {
      const journey = (await this.succeed('journeys.create')).body as Json;
      const activate = this.operation('journeys.setStatus');
      const answer = await this.send('POST', `/v1/journeys/${String(journey.id)}/status`, {
        body: exampleOf(this.document, this.requestMedia(activate)),
      });
      if (answer.status !== 200) throw new Error(`The journey example was not activated: ${answer.status}`);
    }
    if ('webhook_id' in body) {
      const webhook = this.done.get('webhooks.create') ?? ((await this.succeed('webhooks.create')).body as Json);
      return { ...body, webhook_id: webhook.id };
    }
    return body;
  }

  private requestMedia(operation: DocumentOperation): Media {
    return ((operation.op.requestBody as Json).content as Record<string, Media>)['application/json']!;
  }
}
