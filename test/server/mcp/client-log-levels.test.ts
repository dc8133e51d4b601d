// Where a 2025-era client's logging/setLevel is kept over stateless Streamable HTTP (per principal, in the shared
// store, for a while), and which levels reach a threshold.
import { expect } from 'chai';
import type { Principal } from '../../../core/identity/principal.js';
import { StoreError, type KeyValueStore } from '../../../core/store/key-value-store.js';
import { ExpiringMemoryAdapter, openMemoryStore } from '../../../core/store/memory-store.js';
import { CLIENT_LOG_LEVEL_TTL_MS, principalLogLevels, reaches } from '../../../server/mcp/client-log-levels.js';
import { manualClock } from '../../support/enterprise-fixture.js';

const principal = (subject: string, via = 'tokens'): Principal => ({ subject, groups: [], via });

describe('client log levels (logging/setLevel over stateless HTTP)', () => {
  it("keeps a principal's level for it alone: another subject, or the same subject signed in another way, has none", async () => {
    const levels = principalLogLevels(openMemoryStore('log-levels', 1000));
    await levels.set(principal('alice'), 'warning');
    expect(await levels.get(principal('alice'))).to.equal('warning');
    expect(await levels.get(principal('bob'))).to.equal(undefined);
    expect(await levels.get(principal('alice', 'oidc'))).to.equal(undefined);
    await levels.set(principal('alice'), 'debug');
    expect(await levels.get(principal('alice'))).to.equal('debug');
  });

  it('forgets a level not sent again within CLIENT_LOG_LEVEL_TTL_MS', async () => {
    const clock = manualClock();
    const levels = principalLogLevels(openMemoryStore('log-levels', 1000, new ExpiringMemoryAdapter(clock)));
    await levels.set(principal('alice'), 'info');
    clock.advance(CLIENT_LOG_LEVEL_TTL_MS - 1000);
    expect(await levels.get(principal('alice'))).to.equal('info');
    clock.advance(2000);
    expect(await levels.get(principal('alice'))).to.equal(undefined);
  });

  it('reads no level while the store is out (the call goes on without messages), and says so when one is set', async () => {
    const down = {
      get: () => Promise.reject(new StoreError('redis store: get timed out after 1000 ms')),
      set: () => Promise.reject(new StoreError('redis store: set timed out after 1000 ms')),
    } as unknown as KeyValueStore;
    expect(await principalLogLevels(down).get(principal('alice'))).to.equal(undefined);
    const refused = await principalLogLevels(down)
      .set(principal('alice'), 'info')
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(refused?.message).to.equal('redis store: set timed out after 1000 ms');
  });

  it('sends a message at its level or a more severe one, and nothing without a threshold', () => {
    expect(reaches('info', 'info')).to.equal(true);
    expect(reaches('warning', 'info')).to.equal(true);
    expect(reaches('debug', 'info')).to.equal(false);
    expect(reaches('error', 'critical')).to.equal(false);
    expect(reaches('emergency', 'debug')).to.equal(true);
    expect(reaches('emergency', undefined)).to.equal(false);
  });
});
