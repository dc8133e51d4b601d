import { expect } from 'chai';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { uniqueNamespace } from '../../support/redis.js';
import { BACKENDS, openTestStore } from '../../support/store-backends.js';
import { inOtherProcess } from '../../support/store-process.js';
import { sleep } from '../../support/async.js';

// SQLite is shared by the processes of one host, Redis by replicas on many: the same guarantees on both.
for (const backend of BACKENDS.filter((b) => b.shared)) {
  describe(`Sharing the ${backend.kind} store between processes and deployments`, () => {
    let url: string;
    const opened: KeyValueStore[] = [];
    const open = async (namespace: string) => {
      const store = await openTestStore(url, { namespace });
      opened.push(store);
      return store;
    };

    before(async () => {
      url = await backend.freshUrl();
    });
    after(async () => {
      for (const store of opened) await store.close();
    });

    it('shows what one connection wrote to another connection of the same deployment', async () => {
      const deployment = uniqueNamespace();
      const [a, b] = [await open(deployment), await open(deployment)];
      await a.set('approvals', 'req-1', { state: 'granted', by: 'alice' }, 60_000);
      expect(await b.get('approvals', 'req-1')).to.deep.equal({ state: 'granted', by: 'alice' });
      expect(await b.delete('approvals', 'req-1')).to.equal(true);
      expect(await a.get('approvals', 'req-1')).to.equal(undefined);
    });

    it('keeps two deployments (MCP_STORE_NAMESPACE) on one database from seeing each other', async () => {
      const [staging, production] = [await open(uniqueNamespace('staging')), await open(uniqueNamespace('production'))];
      await staging.set('cache', 'GET /user', 'staging body', 60_000);
      expect(await production.get('cache', 'GET /user')).to.equal(undefined);
      await production.set('cache', 'GET /user', 'production body', 60_000);
      expect(await staging.get('cache', 'GET /user')).to.equal('staging body');
      expect(await production.delete('cache', 'GET /user')).to.equal(true);
      expect(await staging.get('cache', 'GET /user')).to.equal('staging body');
    });

    it('keeps entries across a restart: a new process reads them within their TTL, not after', async () => {
      const deployment = uniqueNamespace();
      const first = await openTestStore(url, { namespace: deployment });
      await first.set('artifact-meta', 'owner:a1', { bytes: 3, mimeType: 'text/plain' }, 60_000);
      await first.set('artifact-meta', 'owner:short', { bytes: 1 }, 300);
      await first.close();
      expect(await inOtherProcess(url, deployment, 'get', 'artifact-meta', 'owner:a1')).to.deep.equal({ bytes: 3, mimeType: 'text/plain' });
      await sleep(500);
      expect(await inOtherProcess(url, deployment, 'get', 'artifact-meta', 'owner:short')).to.equal(null);
    });

    it('shows this process what another process wrote', async () => {
      const deployment = uniqueNamespace();
      const store = await open(deployment);
      await inOtherProcess(url, deployment, 'set', 'approvals', 'req-2', JSON.stringify({ state: 'granted' }), '60000');
      expect(await store.get('approvals', 'req-2')).to.deep.equal({ state: 'granted' });
    });
  });
}
