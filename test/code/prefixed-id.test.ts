import { describe, expect, it } from 'vitest';
import { drawIdsFrom, prefixedId } from '../../src/internal/prefixed-id.js';

// Ids draw their random bytes from a pool (src/internal/prefixed-id.ts): each byte is handed out once.
describe('prefixedId', () => {
  it('gives distinct ids of 4 characters per 3 bytes, across many refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(prefixedId('req', 12));
    expect(seen.size).toBe(20_000);
    for (const id of seen) expect(id).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
  });

  it('takes more bytes than the pool holds in one id', () => {
    expect(prefixedId('big', 6_000)).toMatch(/^big_[A-Za-z0-9_-]{8000}$/);
    expect(prefixedId('svc_live', 24)).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
  });

  it('draws from a given source until told to stop, then from the CSPRNG again (a recording)', () => {
    const restore = drawIdsFrom((prefix, bytes) => `${prefix}-${bytes}`);
    try {
      expect(prefixedId('req', 12)).toBe('req_req-12');
      expect(prefixedId('wh')).toBe('wh_wh-18');
    } finally {
      restore();
    }
    expect(prefixedId('req', 12)).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(prefixedId('req', 12)).not.toBe(prefixedId('req', 12));
  });
});
