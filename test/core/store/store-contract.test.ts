import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { StoreError, type KeyValueStore } from '../../../core/store/key-value-store.js';
import { BACKENDS, openTestStore } from '../../support/store-backends.js';
import { rejection, sleep } from '../../support/async.js';

class Point {
  constructor(readonly x: number) {}
}

for (const backend of BACKENDS) {
  describe(`KeyValueStore contract on the ${backend.kind} store`, () => {
    let store: KeyValueStore;

    before(async () => {
      store = await openTestStore(await backend.freshUrl());
      expect(store.kind).to.equal(backend.kind);
    });
    after(() => store.close());

    it('gives back a 64 KiB base64 chunk exactly', async () => {
      const chunk = randomBytes(64 * 1024).toString('base64');
      await store.set('artifact-chunk', 'owner:id:0', chunk, 60_000);
      expect(await store.get('artifact-chunk', 'owner:id:0')).to.equal(chunk);
    });

    it('gives back nested data, edge-case numbers, colon-prefixed strings and Buffers exactly', async () => {
      const value = {
        text: 'héllo ✓ 𝄞 "quoted" \\ back\nslash',
        colonLed: ':starts with a colon',
        looksLikeBuffer: ':base64:aGVsbG8=',
        empty: '',
        ':colonKey': 'kept',
        numbers: [0, -1.5, 1e308, 5e-324, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60],
        flags: [true, false, null],
        nested: { a: { b: { c: [{ d: 'e' }, [], {}] } } },
        bytes: Buffer.from([0, 1, 2, 127, 128, 255]),
      };
      await store.set('cache', 'GET /repos/o/r', value, 60_000);
      const back = await store.get<typeof value>('cache', 'GET /repos/o/r');
      expect(back).to.deep.equal(value);
      expect(Buffer.isBuffer(back?.bytes)).to.equal(true);
    });

    it('gives back top-level strings, numbers, false and null, and tells null from a missing entry', async () => {
      for (const [key, value] of [
        ['s', 'plain'],
        ['n', 42],
        ['f', false],
        ['z', null],
      ] as const) {
        await store.set('scalars', key, value, 60_000);
        expect(await store.get('scalars', key)).to.equal(value);
      }
      expect(await store.get('scalars', 'never-written')).to.equal(undefined);
    });

    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const refused: Array<[string, unknown, string]> = [
      ['undefined', undefined, 'is undefined'],
      ['a BigInt', { count: 10n }, 'at count is a BigInt'],
      ['NaN', { list: [1, Number.NaN] }, 'at list[1] is NaN'],
      ['Infinity', Number.POSITIVE_INFINITY, 'is Infinity'],
      ['a Date', { when: new Date(0) }, 'at when is a Date'],
      ['a Map', new Map([['a', 1]]), 'is a Map'],
      ['a class instance', { at: new Point(1) }, 'at at is a Point'],
      ['a Uint8Array', new Uint8Array([1]), 'is a Uint8Array'],
      ['a function', { run: () => 1 }, 'at run is a function'],
      ['undefined in an array', [1, undefined], 'at [1] is undefined'],
      ['a cycle', cyclic, 'at self refers back to itself'],
    ];
    for (const [what, value, problem] of refused) {
      it(`refuses ${what}, saying where, and stores nothing`, async () => {
        const error = await rejection(store.set('refusals', what, value, 60_000));
        expect(error).to.be.instanceOf(TypeError);
        expect(error.message).to.contain('Cannot store an entry of namespace refusals').and.to.contain(problem);
        expect(await store.get('refusals', what)).to.equal(undefined);
      });
    }

    for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      it(`refuses to keep an entry without a positive TTL (${ttl})`, async () => {
        const error = await rejection(store.set('ttl', 'k', 'v', ttl));
        expect(error.message).to.contain('positive, finite TTL');
        expect(await store.get('ttl', 'k')).to.equal(undefined);
      });
    }

    it('forgets an entry once its TTL has passed and keeps the others', async () => {
      await store.set('expiry', 'short', 'gone soon', 150);
      await store.set('expiry', 'long', 'stays', 60_000);
      expect(await store.get('expiry', 'short')).to.equal('gone soon');
      await sleep(400);
      expect(await store.get('expiry', 'short')).to.equal(undefined);
      expect(await store.delete('expiry', 'short')).to.equal(false);
      expect(await store.get('expiry', 'long')).to.equal('stays');
    });

    it('replaces a value and its TTL when a key is written again', async () => {
      await store.set('rewrite', 'k', 'first', 150);
      await store.set('rewrite', 'k', 'second', 60_000);
      await sleep(400);
      expect(await store.get('rewrite', 'k')).to.equal('second');
    });

    it('keeps namespaces apart: the same key in two namespaces is two entries', async () => {
      await store.set('artifact-meta', 'k', 'meta', 60_000);
      await store.set('artifact-chunk', 'k', 'chunk', 60_000);
      expect(await store.delete('artifact-meta', 'k')).to.equal(true);
      expect(await store.delete('artifact-meta', 'k')).to.equal(false);
      expect(await store.get('artifact-meta', 'k')).to.equal(undefined);
      expect(await store.get('artifact-chunk', 'k')).to.equal('chunk');
    });

    for (const namespace of ['a:b', '', ' cache', 'x/y']) {
      it(`refuses the namespace ${JSON.stringify(namespace)}, which could overlap another`, async () => {
        const error = await rejection(store.get(namespace, 'k'));
        expect(error.message).to.contain('must be letters, digits');
      });
    }

    it('keeps a copy: changing an object after saving it does not change the entry', async () => {
      const approval = { state: 'pending', approvers: ['alice'] };
      await store.set('approvals', 'a1', approval, 60_000);
      approval.state = 'granted';
      approval.approvers.push('mallory');
      expect(await store.get('approvals', 'a1')).to.deep.equal({ state: 'pending', approvers: ['alice'] });
    });

    it('refuses every operation with a StoreError once closed', async () => {
      const other = await openTestStore(await backend.freshUrl());
      await other.close();
      await other.close();
      const error = await rejection(other.get('cache', 'k'));
      expect(error).to.be.instanceOf(StoreError);
      expect(error.message).to.contain(`The ${backend.kind} store is closed`);
    });
  });
}
