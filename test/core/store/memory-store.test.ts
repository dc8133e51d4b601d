import { expect } from 'chai';
import { ExpiringMemoryAdapter, openMemoryStore } from '../../../core/store/memory-store.js';
import { sleep } from '../../support/async.js';

describe('Memory store (memory://)', () => {
  it('sweeps expired entries that are never read again, so their memory is given back', async () => {
    const adapter = new ExpiringMemoryAdapter(undefined, 50);
    const store = openMemoryStore('deployment', 1000, adapter);
    try {
      for (let i = 0; i < 16; i++) await store.set('artifact-chunk', `owner:id:${i}`, 'x'.repeat(64 * 1024), 100);
      await store.set('artifact-meta', 'owner:id', { bytes: 16 * 64 * 1024 }, 60_000);
      expect(adapter.size).to.equal(17);
      for (let tries = 0; tries < 100 && adapter.size > 1; tries++) await sleep(50);
      expect(adapter.size).to.equal(1);
      expect(await store.get('artifact-meta', 'owner:id')).to.deep.equal({ bytes: 16 * 64 * 1024 });
    } finally {
      await store.close();
    }
  });

  it('expires by the clock it is given, whether or not the sweep has run', async () => {
    let now = 1_000_000;
    const adapter = new ExpiringMemoryAdapter({ now: () => now }, 3_600_000);
    const store = openMemoryStore('deployment', 1000, adapter);
    try {
      await store.set('approvals', 'a', 'pending', 60_000);
      now += 59_999;
      expect(await adapter.get('deployment:approvals:a')).to.be.a('string');
      now += 1;
      expect(await adapter.get('deployment:approvals:a')).to.equal(undefined);
      expect(adapter.size).to.equal(0);
    } finally {
      await store.close();
    }
  });
});
