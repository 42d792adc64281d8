import type Database from 'better-sqlite3';
import { z } from 'zod';
import {
  LOOPBACK_TOLERANT_PROVIDER_CONFIGS,
  LoopbackTolerantCustomReplyConfig,
  type ProviderConfig,
  type ProviderName,
  type ProviderPut,
} from '../../../resources/index.js';
import { maskSecret } from '../../../api/schemas/provider-config.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { Page } from '../../../api/schemas/page.js';
import type { ProviderOwner, ProviderRecord } from '../../state/records.js';
import { secretBox } from '../../state/secret-box.js';
import { stores, type Stores } from '../../state/stores.js';
import { validateRequest } from '../../platform/validate-request.js';

/** Whose provider: a group's, or one connected account's (which overrides its group's). */
export interface ProviderOwnerRef {
  owner: ProviderOwner;
  id: string;
}

/** The custom reply endpoint's timeout when `config.timeout_ms` is not set. */
export const DEFAULT_REPLY_TIMEOUT_MS = 5_000;

const recordId = (ref: ProviderOwnerRef, provider: ProviderName) => `${ref.id}/${provider}`;

function requireOwner(s: Stores, ref: ProviderOwnerRef): void {
  if (ref.owner === 'group') s.groups.require(ref.id, 'group');
  else s.accounts.require(ref.id, 'connected account');
}

/** A provider as read back: the secret masked, never unsealed. */
function providerView(record: ProviderRecord): ProviderConfig {
  return {
    provider: record.provider,
    enabled: record.enabled,
    config: record.config,
    secret: record.masked_secret,
    has_secret: record.sealed_secret !== null,
    updated_at: record.updated_at,
  };
}

export function listProviders(
  ctx: EmulatorContext,
  ref: ProviderOwnerRef,
  page: { limit?: number; cursor?: string },
): Page<ProviderConfig> {
  const s = stores(ctx.db);
  requireOwner(s, ref);
  const found = s.providers.list({ ...page, where: { owner: ref.owner, owner_id: ref.id } });
  return { ...found, data: found.data.map(providerView) };
}

/**
 * PUT …/providers/:provider. `config` is checked against the table of the provider the path names
 * (400 naming `config.<field>`); `secret` is sealed with the emulator's secret box, and a PUT without
 * it keeps the stored one. An enabled provider needs a secret, given now or stored before.
 */
export function putProvider(
  ctx: EmulatorContext,
  ref: ProviderOwnerRef,
  provider: ProviderName,
  body: z.output<typeof ProviderPut>,
): ProviderConfig {
  const s = stores(ctx.db);
  requireOwner(s, ref);
  // The body passed the union of both tables; the path's provider decides which one applies.
  const checked = validateRequest(
    { body: z.object({ config: LOOPBACK_TOLERANT_PROVIDER_CONFIGS[provider] }) },
    { params: {}, query: {}, headers: {}, body: { config: body.config } },
  );
  const { config } = checked.body as { config: Record<string, unknown> };
  const id = recordId(ref, provider);
  return ctx.db.transaction(() => {
    const stored = s.providers.get(id);
    const sealed = body.secret !== undefined ? secretBox(ctx.db).seal(body.secret) : (stored?.sealed_secret ?? null);
    const masked = body.secret !== undefined ? maskSecret(body.secret) : (stored?.masked_secret ?? null);
    if (body.enabled && sealed === null) {
      throw new ApiFailure(
        'VALIDATION_FAILED',
        `An enabled ${provider} provider needs a secret: send \`secret\` (it is stored sealed and never returned)`,
        { details: [{ path: 'secret', in: 'body', message: 'required while no secret is stored' }] },
      );
    }
    const record = s.providers.put({
      id,
      owner: ref.owner,
      owner_id: ref.id,
      provider,
      enabled: body.enabled,
      config,
      sealed_secret: sealed,
      masked_secret: masked,
      updated_at: ctx.clock.iso(),
    });
    return providerView(record);
  })();
}

export function deleteProvider(ctx: EmulatorContext, ref: ProviderOwnerRef, provider: ProviderName): void {
  const s = stores(ctx.db);
  requireOwner(s, ref);
  if (!s.providers.delete(recordId(ref, provider))) {
    throw new ApiFailure('NOT_FOUND', `No ${provider} provider is configured on ${ref.owner} ${ref.id}`);
  }
}

/** The custom reply endpoint an account's AI replies go to, with its secret unsealed: for the emulator's own call only. */
export interface ResolvedReplyProvider {
  /** Where it was configured: on the account itself, or on its group. */
  owner: ProviderOwner;
  ownerId: string;
  config: z.output<typeof LoopbackTolerantCustomReplyConfig> & { timeout_ms: number };
  /** The signing secret, unsealed. Never log it or return it from a route. */
  secret: string;
}

function resolved(db: Database.Database, record: ProviderRecord | undefined): ResolvedReplyProvider | null {
  if (!record?.enabled || record.sealed_secret === null) return null;
  const config = LoopbackTolerantCustomReplyConfig.parse(record.config);
  return {
    owner: record.owner,
    ownerId: record.owner_id,
    config: { ...config, timeout_ms: config.timeout_ms ?? DEFAULT_REPLY_TIMEOUT_MS },
    secret: secretBox(db).open(record.sealed_secret),
  };
}

/**
 * Which custom reply endpoint answers for an account: its own `custom_reply` provider if enabled, else
 * its group's if enabled, else none (docs/ai-and-knowledge.md). The AI gates (`ai_enabled`, the group's
 * switch and `enabled_platforms`) are the caller's to check.
 */
export function resolveReplyProvider(db: Database.Database, integrationId: string): ResolvedReplyProvider | null {
  const s = stores(db);
  const account = s.accounts.get(integrationId);
  if (!account) return null;
  const own = resolved(db, s.providers.get(recordId({ owner: 'channel', id: integrationId }, 'custom_reply')));
  if (own) return own;
  if (account.group_id === null) return null;
  return resolved(db, s.providers.get(recordId({ owner: 'group', id: account.group_id }, 'custom_reply')));
}
