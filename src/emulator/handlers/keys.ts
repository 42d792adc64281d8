import type { endpoints } from '../../api/endpoints/index.js';
import { ApiFailure } from '../api-failure.js';
import type { Scope } from '../../api/scopes.js';
import type { AuthenticatedKey, EmulatorContext, RouteHandlers } from '../route-handler.js';
import { KeyStore, type KeyRecord } from '../state/key-store.js';

/** The ids of the emulator's own keys, set at start (`--admin-key`, `--test-key`); the API cannot rotate or revoke them. */
export const EMULATOR_KEY_IDS = { admin: 'key_emulator_admin', test: 'key_emulator_test' } as const;

/** Active keys per workspace, so the key table (read on every request) stays small. */
export const MAX_KEYS = 1000;

const keysOf = (ctx: EmulatorContext) => new KeyStore(ctx.db, ctx.clock);

function view({ id, label, scopes, kind, last4, created_at, last_used_at }: KeyRecord) {
  return { id, label, scopes, kind, last4, created_at, last_used_at };
}

/**
 * A key can hand out only what it holds itself, so keys:write is not a way to every scope: creating a key
 * with more scopes, or rotating one (its new value is answered to the caller), is 403 naming what is missing.
 */
function requireHeldScopes(caller: AuthenticatedKey, scopes: readonly Scope[], what: string): void {
  const missing = scopes.filter((s) => !caller.scopes.includes(s));
  if (missing.length > 0) {
    throw new ApiFailure('INSUFFICIENT_SCOPE', `A key cannot ${what} scopes it does not hold: ${missing.join(', ')}`, {
      details: missing.map((required_scope) => ({ required_scope })),
    });
  }
}

function refuseEmulatorKey(id: string): void {
  if (id === EMULATOR_KEY_IDS.admin || id === EMULATOR_KEY_IDS.test) {
    throw new ApiFailure(
      'INVALID_STATE',
      "The emulator's own keys are set when it starts (--admin-key, --test-key); create a key to rotate or revoke",
    );
  }
}

export const keysHandlers = {
  list: ({ query }, ctx) => {
    const page = keysOf(ctx).list({ limit: query.limit, cursor: query.cursor, where: { kind: query.kind } });
    return { data: page.data.map(view), pagination: page.pagination };
  },

  create: ({ body, key }, ctx) => {
    requireHeldScopes(key, body.scopes, 'grant');
    const keys = keysOf(ctx);
    if (keys.count() >= MAX_KEYS)
      throw new ApiFailure('INVALID_STATE', `A workspace has at most ${MAX_KEYS} active keys; revoke one first`);
    const created = keys.create({
      id: ctx.newId('key'),
      label: body.label,
      scopes: [...new Set(body.scopes)],
      kind: body.kind,
    });
    return { ...view(created.record), key: created.key };
  },

  rotate: ({ params, key }, ctx) => {
    refuseEmulatorKey(params.id);
    const keys = keysOf(ctx);
    const target = keys.get(params.id);
    if (target) requireHeldScopes(key, target.scopes, 'rotate a key with');
    const rotated = keys.rotate(params.id);
    return {
      ...view(rotated.record),
      key: rotated.key,
      previous_key_expires_at: new Date(rotated.previousExpiresAt).toISOString(),
    };
  },

  revoke: ({ params }, ctx) => {
    refuseEmulatorKey(params.id);
    keysOf(ctx).revoke(params.id);
  },
} satisfies RouteHandlers<typeof endpoints.keys>;
