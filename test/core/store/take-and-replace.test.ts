import { expect } from 'chai';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { rejection, sleep } from '../../support/async.js';
import { uniqueNamespace } from '../../support/redis.js';
import { BACKENDS, openTestStore } from '../../support/store-backends.js';
import { inOtherProcess } from '../../support/store-process.js';

const RACERS = 32;

/**
 * The store's two atomic operations, on every store: `take` (read and delete as one: what makes a grant or a
 * sign-in's state single-use) and `replaceIf` (compare-and-set: what makes an approval decided once). Racers
 * are spread over two connections where the store is shared, as two workers or replicas would be.
 */
for (const backend of BACKENDS) {
  describe(`take and replaceIf on the ${backend.kind} store`, function () {
    this.timeout(60_000);
    let url: string;
    let deployment: string;
    let stores: KeyValueStore[];
    /** The store the i-th racer uses: alternately each connection. */
    const racer = (i: number): KeyValueStore => stores[i % stores.length]!;

    before(async () => {
      url = await backend.freshUrl();
      deployment = uniqueNamespace('atomic');
      const first = await openTestStore(url, { namespace: deployment });
      stores = backend.shared ? [first, await openTestStore(url, { namespace: deployment })] : [first];
    });
    after(async () => {
      for (const store of stores) await store.close();
    });

    it('takes an entry once: the value, then nothing, and the entry is gone', async () => {
      const [store] = stores;
      await store!.set('approval-grant', 'apr-1', { by: 'olga' }, 60_000);
      expect(await store!.take('approval-grant', 'apr-1')).to.deep.equal({ by: 'olga' });
      expect(await store!.take('approval-grant', 'apr-1')).to.equal(undefined);
      expect(await store!.get('approval-grant', 'apr-1')).to.equal(undefined);
      expect(await store!.take('approval-grant', 'never-written')).to.equal(undefined);
    });

    it('gives null and false back from take (told apart from a missing entry), and keeps namespaces apart', async () => {
      const [store] = stores;
      await store!.set('scalars', 'z', null, 60_000);
      await store!.set('scalars', 'f', false, 60_000);
      await store!.set('other', 'z', 'kept', 60_000);
      expect(await store!.take('scalars', 'z')).to.equal(null);
      expect(await store!.take('scalars', 'f')).to.equal(false);
      expect(await store!.get('other', 'z')).to.equal('kept');
    });

    it('never takes an expired entry', async () => {
      const [store] = stores;
      await store!.set('console-login', 'state', { nonce: 'n' }, 150);
      await sleep(400);
      expect(await store!.take('console-login', 'state')).to.equal(undefined);
    });

    it(`gives an entry to exactly one of ${RACERS} takes at once`, async () => {
      for (const round of [1, 2, 3]) {
        await stores[0]!.set('approval-grant', `raced-${round}`, true, 60_000);
        const taken = await Promise.all(Array.from({ length: RACERS }, (_, i) => racer(i).take('approval-grant', `raced-${round}`)));
        expect(
          taken.filter((v) => v !== undefined),
          `round ${round}`,
        ).to.deep.equal([true]);
      }
    });

    it('replaces a value that has not changed, with the new TTL, and says so', async () => {
      const [store] = stores;
      await store!.set('approval', 'apr-2', { status: 'pending' }, 60_000);
      const pending = await store!.get('approval', 'apr-2');
      expect(await store!.replaceIf('approval', 'apr-2', pending, { status: 'granted', by: 'olga' }, 150)).to.equal(true);
      expect(await store!.get('approval', 'apr-2')).to.deep.equal({ status: 'granted', by: 'olga' });
      await sleep(400);
      expect(await store!.get('approval', 'apr-2')).to.equal(undefined);
    });

    it('replaces nothing when the value changed, or the entry is missing or expired', async () => {
      const [store] = stores;
      await store!.set('approval', 'apr-3', { status: 'pending' }, 60_000);
      await store!.set('approval', 'apr-3', { status: 'rejected', by: 'paul' }, 60_000);
      expect(await store!.replaceIf('approval', 'apr-3', { status: 'pending' }, { status: 'granted' }, 60_000)).to.equal(false);
      expect(await store!.get('approval', 'apr-3')).to.deep.equal({ status: 'rejected', by: 'paul' });
      expect(await store!.replaceIf('approval', 'never-written', { status: 'pending' }, { status: 'granted' }, 60_000)).to.equal(false);
      expect(await store!.get('approval', 'never-written')).to.equal(undefined);
      await store!.set('approval', 'apr-4', { status: 'pending' }, 150);
      await sleep(400);
      expect(await store!.replaceIf('approval', 'apr-4', { status: 'pending' }, { status: 'granted' }, 60_000)).to.equal(false);
      expect(await store!.get('approval', 'apr-4')).to.equal(undefined);
    });

    it(`lets exactly one of ${RACERS} replacements of one value at once win, and keeps the winner's value`, async () => {
      for (const round of [1, 2, 3]) {
        await stores[0]!.set('approval', `cas-${round}`, { status: 'pending', round }, 60_000);
        const nexts = Array.from({ length: RACERS }, (_, i) => ({ status: 'granted', by: `approver-${i}` }));
        const won = await Promise.all(nexts.map((next, i) => racer(i).replaceIf('approval', `cas-${round}`, { status: 'pending', round }, next, 60_000)));
        const winners = nexts.filter((_, i) => won[i]);
        expect(winners, `round ${round}`).to.have.length(1);
        for (const store of stores) expect(await store.get('approval', `cas-${round}`)).to.deep.equal(winners[0]);
      }
    });

    it('refuses a replacement without a positive TTL, or with a value it could not give back, and keeps the entry', async () => {
      const [store] = stores;
      await store!.set('approval', 'apr-5', 'pending', 60_000);
      expect((await rejection(store!.replaceIf('approval', 'apr-5', 'pending', 'granted', 0))).message).to.contain('positive, finite TTL');
      expect((await rejection(store!.replaceIf('approval', 'apr-5', 'pending', { at: new Date(0) }, 60_000))).message).to.contain('at at is a Date');
      expect(await store!.get('approval', 'apr-5')).to.equal('pending');
    });

    if (backend.shared) {
      it(`races ${RACERS} takes and ${RACERS} replacements from four other processes: one of each wins`, async () => {
        await stores[0]!.set('approval-grant', 'across', true, 60_000);
        await stores[0]!.set('approval', 'across', 'pending', 60_000);
        // Each process connects, then all fire at the same moment, 8 operations each.
        const startAt = String(Date.now() + 4000);
        const takes = [1, 2, 3, 4].map(() => inOtherProcess(url, deployment, 'take-at', 'approval-grant', 'across', '8', startAt));
        const replaces = [1, 2, 3, 4].map(() => inOtherProcess(url, deployment, 'replace-at', 'approval', 'across', '"pending"', '8', startAt));
        const [taken, replaced] = [(await Promise.all(takes)) as number[], ((await Promise.all(replaces)) as string[][]).flat()];
        expect(
          taken.reduce((a, b) => a + b, 0),
          `takes that got the value, per process: ${taken.join(', ')}`,
        ).to.equal(1);
        expect(replaced).to.have.length(1);
        expect(await stores[1]!.get('approval', 'across')).to.equal(replaced[0]);
      });
    }
  });
}
