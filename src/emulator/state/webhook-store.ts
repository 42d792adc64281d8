import { prefixedId } from '../../internal/prefixed-id.js';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { matchesAny } from '../../events/index.js';
import type { Page } from '../../api/schemas/page.js';
import { Collection, type ListOptions } from './collection.js';
import { secretBox, type SecretBox } from './secret-box.js';
import { statement } from './statement.js';

/** A registered endpoint as stored: the secret only sealed (AES-256-GCM), never in readable form. */
export const StoredEndpoint = z.object({
  id: z.string().min(1),
  url: z.string(),
  events: z.array(z.string()),
  is_active: z.boolean(),
  description: z.string().nullable(),
  created_at: z.string(),
  sealed_secret: z.string(),
  /** The secret before a rotation (`/_emulator/chaos/rotate-secret`), still signing until `previous_valid_until`. */
  previous_sealed_secret: z.string().nullable().optional(),
  /** Unix ms on the emulator clock. */
  previous_valid_until: z.number().nullable().optional(),
});
type StoredEndpoint = z.output<typeof StoredEndpoint>;

export type WebhookEndpoint = Omit<StoredEndpoint, 'sealed_secret' | 'previous_sealed_secret' | 'previous_valid_until'>;

export const WEBHOOKS_KIND = 'webhook_endpoints';

/** `whsec_` + 32 url-safe characters. */
export function generateWebhookSecret(): string {
  return prefixedId('whsec', 24);
}

function publicView({
  sealed_secret: _sealed,
  previous_sealed_secret: _previous,
  previous_valid_until: _until,
  ...endpoint
}: StoredEndpoint): WebhookEndpoint {
  return endpoint;
}

export class WebhookStore {
  private readonly records: Collection<StoredEndpoint>;
  private readonly box: SecretBox;

  constructor(private readonly db: Database.Database) {
    this.records = new Collection<StoredEndpoint>(db, WEBHOOKS_KIND);
    this.box = secretBox(db);
  }

  /** Registers an endpoint; the returned `secret` is the only time it is readable. */
  create(input: Omit<WebhookEndpoint, 'is_active'>): { endpoint: WebhookEndpoint; secret: string } {
    const secret = generateWebhookSecret();
    const stored = this.records.insert({ ...input, is_active: true, sealed_secret: this.box.seal(secret) });
    return { endpoint: publicView(stored), secret };
  }

  count(): number {
    return this.records.count();
  }

  /** Every registered endpoint's id (the dispatcher's claim stops looking once each has its share in flight). */
  ids(): Set<string> {
    return new Set(
      (statement(this.db, 'SELECT id FROM docs WHERE kind = ?').all(WEBHOOKS_KIND) as { id: string }[]).map(
        (r) => r.id,
      ),
    );
  }

  get(id: string): WebhookEndpoint | undefined {
    const stored = this.records.get(id);
    return stored && publicView(stored);
  }

  require(id: string): WebhookEndpoint {
    return publicView(this.records.require(id, 'webhook endpoint'));
  }

  list(options: ListOptions): Page<WebhookEndpoint> {
    const page = this.records.list(options);
    return { data: page.data.map(publicView), pagination: page.pagination };
  }

  /** The active endpoints subscribed to `event` (exact, `*` or `ns.*`). */
  subscribers(event: string): WebhookEndpoint[] {
    return this.records
      .all({ is_active: true })
      .filter((e) => matchesAny(e.events, event))
      .map(publicView);
  }

  /**
   * A new secret for the endpoint; the current one keeps signing beside it until `now + graceMs`, so a
   * receiver moves to the new one without refusing a delivery. Answers the new secret: the only time it is readable.
   */
  rotateSecret(id: string, graceMs: number, now: number): { secret: string; previousValidUntil: number } {
    const secret = generateWebhookSecret();
    const previousValidUntil = now + graceMs;
    this.records.update(id, (stored) => ({
      ...stored,
      sealed_secret: this.box.seal(secret),
      previous_sealed_secret: stored.sealed_secret,
      previous_valid_until: previousValidUntil,
    }));
    return { secret, previousValidUntil };
  }

  /** Every secret that signs a delivery now: the current one, then one in its rotation grace period. */
  signingSecretsOf(id: string, now: number): string[] {
    const stored = this.records.get(id);
    if (!stored) return [];
    const secrets = [this.box.open(stored.sealed_secret)];
    if (stored.previous_sealed_secret && (stored.previous_valid_until ?? 0) > now)
      secrets.push(this.box.open(stored.previous_sealed_secret));
    return secrets;
  }

  /** For signing only (deliveries, sign-payload); never answered through the API. */
  secretOf(id: string): string | undefined {
    const stored = this.records.get(id);
    return stored && this.box.open(stored.sealed_secret);
  }

  /** Every endpoint goes, with every delivery and attempt (a reset to the seed, an import). */
  deleteAll(): void {
    this.db.transaction(() => {
      this.records.clear();
      statement(this.db, 'DELETE FROM deliveries').run();
      statement(this.db, 'DELETE FROM delivery_attempts').run();
      statement(this.db, "DELETE FROM meta WHERE name = 'delivery_attempts_total'").run();
    })();
  }

  /** The endpoint stops receiving at once: its pending deliveries are dropped with it; its attempt log goes too. */
  delete(id: string): void {
    this.db.transaction(() => {
      this.records.require(id, 'webhook endpoint');
      this.records.delete(id);
      this.db.prepare('DELETE FROM deliveries WHERE endpoint_id = ?').run(id);
      this.db.prepare('DELETE FROM delivery_attempts WHERE endpoint_id = ?').run(id);
    })();
  }
}
