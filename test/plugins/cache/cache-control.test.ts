import { expect } from 'chai';
import { freshnessOf } from '../../../plugins/cache/cache-control.js';

describe('freshnessOf (Cache-Control -> how long an entry is served)', () => {
  const limits = { defaultTtlMs: 60_000, maxTtlMs: 3_600_000 };
  const cases: Array<[string | null, { store: boolean; ttlMs: number }]> = [
    [null, { store: true, ttlMs: 60_000 }],
    ['max-age=30', { store: true, ttlMs: 30_000 }],
    ['private, max-age=30', { store: true, ttlMs: 30_000 }],
    ['Max-Age="45"', { store: true, ttlMs: 45_000 }],
    ['max-age=86400', { store: true, ttlMs: 3_600_000 }],
    ['max-age=0', { store: true, ttlMs: 0 }],
    ['no-cache', { store: true, ttlMs: 0 }],
    ['no-cache, max-age=600', { store: true, ttlMs: 0 }],
    ['no-store', { store: false, ttlMs: 0 }],
    ['max-age=600, no-store', { store: false, ttlMs: 0 }],
    ['max-age=soon', { store: true, ttlMs: 60_000 }],
    ['public, s-maxage=5', { store: true, ttlMs: 60_000 }],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} -> ${JSON.stringify(expected)}`, () => {
      expect(freshnessOf(header, limits)).to.deep.equal(expected);
    });
  }

  it('caps the default TTL too', () => {
    expect(freshnessOf(null, { defaultTtlMs: 600_000, maxTtlMs: 120_000 })).to.deep.equal({ store: true, ttlMs: 120_000 });
  });
});
