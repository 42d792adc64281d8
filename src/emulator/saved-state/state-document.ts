import { z } from 'zod';
import { Timestamp } from '../../api/schemas/common.js';
import { RESOURCE_COLLECTIONS } from '../state/stores.js';
import { COLLECTION_SCHEMAS } from './collection-schemas.js';

/** Where the state routes are mounted (`GET` and `PUT`). */
export const STATE_PATH = '/_emulator/state';

/** The header that carries the state key on `GET`/`PUT /_emulator/state` (the CLI reads CONVO_KIT_STATE_KEY). */
export const STATE_KEY_HEADER = 'x-emulator-state-key';

/** What the document is, so a wrong file is named as such rather than as fifty missing fields. */
export const STATE_FORMAT = 'convo-kit-emulator-state' as const;
/** Raised when a document written by this version can no longer be read as it is (docs/emulator.md). */
export const STATE_FORMAT_VERSION = 1 as const;
/** The largest document an import takes, and so the largest an export writes (a `--db` file keeps any size). */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;
/** Written where a secret was, when the export was made without a state key. */
export const LEFT_OUT = '(left out)';
/** Fields of stored documents that hold a secret sealed with the emulator's secret box (never readable). */
export const SEALED_FIELDS = ['sealed_secret', 'previous_sealed_secret'] as const;

/**
 * What a state document holds and leaves out, as `GET /_emulator` and `GET /v1/developer/capabilities` say it
 * (docs/emulator.md, "Saving and loading state").
 */
export const STATE_CAPABILITY = {
  path: STATE_PATH,
  methods: ['GET', 'PUT'],
  format_version: STATE_FORMAT_VERSION,
  state_key_header: STATE_KEY_HEADER,
  cli: ['--export-on-exit [file or dir]', '--import <file or dir>', 'CONVO_KIT_STATE_KEY'],
  saved: [
    'the clock (an import goes on from its time)',
    'every collection of the workspace, oldest first: resources, journeys and enrollments with their due steps, campaigns with their recipients and progress, message delivery progress, automations and their runs, AI replies waiting',
    'API keys made through the API: label, scopes and sha256 hashes of their values, never a value',
    'webhook endpoints and provider settings, their secrets sealed with the state key (X-Emulator-State-Key, CONVO_KIT_STATE_KEY) or left out without one',
    'webhook deliveries pending (retries included) and settled, the attempt log, request counts',
  ],
  not_saved: [
    "the emulator's own admin and test keys (each emulator keeps its own: --admin-key, --test-key)",
    'idempotency records (their stored answers may hold a key or secret shown once)',
    'rate-limit windows and chaos rules (asked for, never inherited)',
    'the plan and other start-up options',
  ],
};

/** Each kind's id field where it is not `id`, from the table of resource collections. */
const ID_FIELDS: ReadonlyMap<string, string> = new Map(
  Object.values(RESOURCE_COLLECTIONS).map((c) => [c.kind, 'idField' in c ? c.idField : 'id']),
);
export const idFieldOf = (kind: string): string => ID_FIELDS.get(kind) ?? 'id';

const KIND = /^[a-z][a-z0-9_]{0,63}$/;
const count = z.number().int().min(0);
/** Unix milliseconds on the emulator clock. */
const ms = z.number().int();

/** How the document's secrets were sealed: AES-256-GCM with a key scrypt derives from the state key. */
export const StateSecrets = z.strictObject({
  kdf: z.literal('scrypt'),
  salt: z.base64().length(24),
  /** scrypt's N; bounded so a crafted document cannot make the import spend minutes. */
  cost: z
    .number()
    .int()
    .min(2 ** 14)
    .max(2 ** 17)
    .refine((n) => (n & (n - 1)) === 0, 'a power of two'),
  block_size: z.number().int().min(1).max(16),
  parallelization: z.number().int().min(1).max(4),
});
export type StateSecrets = z.output<typeof StateSecrets>;

/** One delivery waiting for (or done with) its attempts; one in flight at export is pending again. */
const Delivery = z.strictObject({
  id: z.string().min(1),
  endpoint_id: z.string().min(1),
  event: z.string().min(1),
  body: z.string(),
  attempts: count,
  state: z.enum(['pending', 'settled']),
  next_attempt_at: ms.nullable(),
  created_at: ms,
});

const DeliveryAttempt = z.strictObject({
  endpoint_id: z.string().min(1),
  delivery_id: z.string().min(1),
  event: z.string().min(1),
  attempt: z.number().int().min(1),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  delivered_at: ms.nullable(),
  next_retry_at: ms.nullable(),
  created_at: ms,
});

/** A key value's sha256 (never the value): a key made through the API works after the import as before. */
const KeyHash = z.strictObject({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
  key_id: z.string().min(1),
  /** Set once the value was rotated away (its grace end) or revoked (null, with no key record). */
  expires_at: ms.nullable(),
});

const RequestCount = z.strictObject({ api_key_id: z.string(), minute: count, requests: count, server_errors: count });

/** Each document checked by its kind's schema (its own fields kept as written), its id present and unique. */
const Collections = z
  .record(
    z.string().regex(KIND, 'a collection name: lowercase letters, digits and _'),
    z.array(z.record(z.string(), z.unknown())),
  )
  .superRefine((collections, ctx) => {
    for (const [kind, docs] of Object.entries(collections)) {
      const schema = COLLECTION_SCHEMAS[kind];
      const idField = idFieldOf(kind);
      const seen = new Set<string>();
      docs.forEach((doc, i) => {
        const id = doc[idField];
        if (typeof id !== 'string' || id === '') {
          ctx.addIssue({ code: 'custom', path: [kind, i, idField], message: 'expected the id, a non-empty string' });
        } else if (seen.has(id)) {
          ctx.addIssue({
            code: 'custom',
            path: [kind, i, idField],
            message: `the id ${JSON.stringify(id)} comes twice`,
          });
        } else seen.add(id);
        const result = schema?.safeParse(doc);
        for (const issue of result?.success === false ? result.error.issues : []) {
          ctx.addIssue({ code: 'custom', path: [kind, i, ...issue.path], message: issue.message });
        }
      });
    }
  });

/**
 * The whole workspace as one JSON document (docs/emulator.md, "Saving and loading state"): every collection
 * oldest first, the keys made through the API (their hashes only), webhook endpoints with their secrets sealed
 * with the state key (or left out), pending and settled deliveries, the attempt log, request counts and the clock.
 */
export const StateDocument = z
  .strictObject({
    format: z.literal(STATE_FORMAT),
    format_version: z.literal(STATE_FORMAT_VERSION),
    clock: z.strictObject({ now: Timestamp }),
    /** null: exported without a state key, so every secret is LEFT_OUT. */
    secrets: StateSecrets.nullable(),
    collections: Collections,
    api_key_hashes: z.array(KeyHash),
    deliveries: z.array(Delivery),
    delivery_attempts: z.array(DeliveryAttempt),
    delivery_attempts_total: count,
    request_counts: z.array(RequestCount),
  })
  .superRefine((doc, ctx) => {
    // Keys of their tables: a repeat would fail the write (the state kept, but as a 500 naming nothing).
    const unique = <T>(rows: T[], key: (row: T) => string, path: (i: number) => (string | number)[]) => {
      const seen = new Set<string>();
      rows.forEach((row, i) => {
        if (seen.has(key(row))) ctx.addIssue({ code: 'custom', path: path(i), message: 'comes twice' });
        seen.add(key(row));
      });
    };
    unique(
      doc.deliveries,
      (d) => d.id,
      (i) => ['deliveries', i, 'id'],
    );
    unique(
      doc.api_key_hashes,
      (h) => h.sha256,
      (i) => ['api_key_hashes', i, 'sha256'],
    );
    unique(
      doc.request_counts,
      (c) => `${c.api_key_id} ${c.minute}`,
      (i) => ['request_counts', i, 'minute'],
    );
    for (const [kind, docs] of Object.entries(doc.collections)) {
      docs.forEach((item, i) => {
        for (const field of SEALED_FIELDS) {
          if (item[field] === LEFT_OUT) {
            ctx.addIssue({
              code: 'custom',
              path: ['collections', kind, i, field],
              message:
                'this secret was left out of the export (made without a state key), and nothing can sign without it: export again with CONVO_KIT_STATE_KEY set',
            });
          } else if (typeof item[field] === 'string' && doc.secrets === null) {
            ctx.addIssue({
              code: 'custom',
              path: ['collections', kind, i, field],
              message: 'a sealed secret, but the document says no state key sealed it (secrets is null)',
            });
          }
        }
      });
    }
  });
export type StateDocument = z.output<typeof StateDocument>;
