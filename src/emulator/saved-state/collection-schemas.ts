import type { z } from 'zod';
import { KeyRecord, KEYS_KIND } from '../state/key-store.js';
import { RESOURCE_COLLECTIONS } from '../state/stores.js';
import { StoredEndpoint, WEBHOOKS_KIND } from '../state/webhook-store.js';

/**
 * The schema each stored kind is checked with when a state document is imported, keyed by the kind's name in
 * the database (src/emulator/state/stores.ts). A kind missing here (the emulator's own bookkeeping: campaign
 * progress, delivery progress, …) is checked as an object with a string id; test/emulator/saved-state.test.ts
 * holds that every resource store has its schema here.
 */
export const COLLECTION_SCHEMAS: Record<string, z.ZodType> = {
  ...Object.fromEntries(Object.values(RESOURCE_COLLECTIONS).map(({ kind, schema }) => [kind, schema])),
  [KEYS_KIND]: KeyRecord,
  [WEBHOOKS_KIND]: StoredEndpoint,
};
