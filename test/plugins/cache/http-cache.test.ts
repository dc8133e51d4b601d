import { expect } from 'chai';
import type { MockReply } from '../../../server/testing/mock-upstream.js';
import type { Clock } from '../../../core/store/key-value-store.js';
import { pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const SLUG = 'gh/CircleCI-Public/api-preview-docs';
// A list that stays cacheable (a project's schedules): pipeline lists are status paths. The items' shape does not matter to the cache.
const LIST = `/project/${SLUG}/schedule`;

/** Time that passes only when a test says so: TTLs are reached without sleeping. */
class TestClock implements Clock {
  private t = Date.UTC(2026, 9, 7, 16, 20, 11, 402);
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  iso(): string {
    return new Date(this.t).toISOString();
  }
}

interface ReadResult {
  data: unknown;
  cache: { hit: boolean; ageMs: number; fetchedAt: string };
}

describe('HTTP cache on circleci_get (controllable clock, memory store)', () => {
  const clock = new TestClock();
  const t = useVendorKernel({
    plugins: ['circleci'],
    env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: 'circle-cacheTestToken0123', HTTP_CACHE_MAX_TTL_SECONDS: '120', HTTP_CACHE_MAX_BYTES: '10000' }),
    clock,
  });

  /** Each test reads its own path, so entries of earlier tests never interfere. */
  let n = 0;
  const freshList = (): string => `${LIST}?n=${++n}`;
  const read = async (path: string, args: Record<string, unknown> = {}): Promise<ReadResult> => {
    const result = await t.kernel.call('circleci_get', { path, outputFormat: 'json', jq: 'items[*].number', ...args });
    expect(result.isError, textOf(result)).to.equal(undefined);
    return JSON.parse(textOf(result)) as ReadResult;
  };
  const serve = (reply: (req: { headers: Record<string, unknown> }) => MockReply): void => {
    t.mock.on('GET', `/api/v2${LIST}`, (req) => ({ ...tokenPagedReply(req, pipelines(2)), ...reply(req) }));
  };

  it('a miss, then a hit of growing age from one upstream request', async () => {
    serve(() => ({}));
    const path = freshList();
    const fetchedAt = clock.iso();
    expect(await read(path)).to.deep.equal({ data: [27, 26], cache: { hit: false, ageMs: 0, fetchedAt } });
    clock.advance(2140);
    expect(await read(path)).to.deep.equal({ data: [27, 26], cache: { hit: true, ageMs: 2140, fetchedAt } });
    clock.advance(1000);
    expect((await read(path)).cache).to.deep.equal({ hit: true, ageMs: 3140, fetchedAt });
    expect(t.mock.requests).to.have.length(1);
  });

  it('stores the response, not the text: another jq and format are rendered from the same entry', async () => {
    serve(() => ({}));
    const path = freshList();
    await read(path);
    const toon = textOf(await t.kernel.call('circleci_get', { path, jq: 'items[0].vcs.branch' }));
    expect(toon).to.equal(`cache:\n  hit: true\n  ageMs: 0\n  fetchedAt: "${clock.iso()}"\ndata: feature/design-new-api`);
    expect(t.mock.requests).to.have.length(1);
  });

  it('keeps an entry for HTTP_CACHE_DEFAULT_TTL_SECONDS (60) when there is no Cache-Control', async () => {
    serve(() => ({}));
    const path = freshList();
    await read(path);
    clock.advance(59_999);
    expect((await read(path)).cache.hit).to.equal(true);
    clock.advance(1);
    expect((await read(path)).cache).to.deep.equal({ hit: false, ageMs: 0, fetchedAt: clock.iso() });
    expect(t.mock.requests).to.have.length(2);
  });

  it('takes the TTL from Cache-Control max-age', async () => {
    serve(() => ({ headers: { 'cache-control': 'private, max-age=5' } }));
    const path = freshList();
    await read(path);
    clock.advance(4_999);
    expect((await read(path)).cache.hit).to.equal(true);
    clock.advance(1);
    expect((await read(path)).cache.hit).to.equal(false);
  });

  it('caps max-age at HTTP_CACHE_MAX_TTL_SECONDS (120 here)', async () => {
    serve(() => ({ headers: { 'cache-control': 'max-age=86400' } }));
    const path = freshList();
    await read(path);
    clock.advance(119_000);
    expect((await read(path)).cache.hit).to.equal(true);
    clock.advance(1_000);
    expect((await read(path)).cache.hit).to.equal(false);
  });

  it('never stores a no-store response', async () => {
    serve(() => ({ headers: { 'cache-control': 'no-store' } }));
    const path = freshList();
    await read(path);
    expect((await read(path)).cache.hit).to.equal(false);
    expect(t.mock.requests).to.have.length(2);
  });

  it('revalidates a stale entry with If-None-Match; a 304 refreshes it and is served as a hit', async () => {
    const path = freshList();
    serve((req) =>
      req.headers['if-none-match'] === '"v1"'
        ? { status: 304, headers: { etag: '"v1"', 'cache-control': 'max-age=10' }, body: '' }
        : { headers: { etag: '"v1"', 'cache-control': 'max-age=10' } },
    );
    await read(path);
    clock.advance(10_000);
    const revalidatedAt = clock.iso();
    expect(await read(path)).to.deep.equal({ data: [27, 26], cache: { hit: true, ageMs: 0, fetchedAt: revalidatedAt } });
    expect(t.mock.requests.map((r) => r.headers['if-none-match'])).to.deep.equal([undefined, '"v1"']);
    clock.advance(3_000);
    expect((await read(path)).cache).to.deep.equal({ hit: true, ageMs: 3_000, fetchedAt: revalidatedAt });
    expect(t.mock.requests).to.have.length(2);
  });

  it('replaces a stale entry when revalidation brings a new body', async () => {
    const path = freshList();
    let version = 1;
    t.mock.on('GET', `/api/v2${LIST}`, (req): MockReply => {
      const etag = `"v${version}"`;
      if (req.headers['if-none-match'] === etag) return { status: 304, headers: { etag } };
      return { headers: { etag, 'cache-control': 'max-age=10' }, body: { items: pipelines(version + 1), next_page_token: null } };
    });
    expect((await read(path)).data).to.deep.equal([27, 26]);
    version = 2;
    clock.advance(10_000);
    expect(await read(path)).to.deep.equal({ data: [28, 27, 26], cache: { hit: false, ageMs: 0, fetchedAt: clock.iso() } });
    clock.advance(1_000);
    expect((await read(path)).cache.hit).to.equal(true);
  });

  it('revalidates a no-cache response on every use', async () => {
    const path = freshList();
    serve((req) =>
      req.headers['if-none-match'] === 'W/"abc"'
        ? { status: 304, headers: { etag: 'W/"abc"', 'cache-control': 'no-cache' }, body: '' }
        : { headers: { etag: 'W/"abc"', 'cache-control': 'no-cache' } },
    );
    await read(path);
    expect((await read(path)).cache.hit).to.equal(true);
    expect((await read(path)).cache.hit).to.equal(true);
    expect(t.mock.requests.map((r) => r.headers['if-none-match'])).to.deep.equal([undefined, 'W/"abc"', 'W/"abc"']);
  });

  it('never caches a failed response: the next call asks again and can succeed', async () => {
    const path = freshList();
    let calls = 0;
    t.mock.on('GET', `/api/v2${LIST}`, (req) =>
      ++calls === 1 ? { status: 404, headers: { 'cache-control': 'max-age=600' }, body: { message: 'Project not found' } } : tokenPagedReply(req, pipelines(2)),
    );
    expect((await t.kernel.call('circleci_get', { path })).isError).to.equal(true);
    expect((await read(path)).data).to.deep.equal([27, 26]);
    expect(t.mock.requests).to.have.length(2);
  });

  it('does not store a body larger than HTTP_CACHE_MAX_BYTES (10000 here)', async () => {
    const path = freshList();
    t.mock.on('GET', `/api/v2${LIST}`, (req) => tokenPagedReply(req, pipelines(20))); // about 17 KB
    await read(path);
    expect((await read(path)).cache.hit).to.equal(false);
    expect(t.mock.requests).to.have.length(2);
  });

  it('fresh: true skips the read, and the fresh answer replaces the entry', async () => {
    const path = freshList();
    let count = 2;
    t.mock.on('GET', `/api/v2${LIST}`, (req) => tokenPagedReply(req, pipelines(count)));
    await read(path);
    count = 3;
    clock.advance(5_000);
    const refreshedAt = clock.iso();
    expect(await read(path, { fresh: true })).to.deep.equal({ data: [28, 27, 26], cache: { hit: false, ageMs: 0, fetchedAt: refreshedAt } });
    clock.advance(1_000);
    expect(await read(path)).to.deep.equal({ data: [28, 27, 26], cache: { hit: true, ageMs: 1_000, fetchedAt: refreshedAt } });
    expect(t.mock.requests).to.have.length(2);
  });

  it('keys entries by the full URL: other query parameters are another entry', async () => {
    serve(() => ({}));
    await read(LIST, { queryParams: { branch: 'main' } });
    expect((await read(LIST, { queryParams: { branch: 'dev' } })).cache.hit).to.equal(false);
    expect((await read(LIST, { queryParams: { branch: 'main' } })).cache.hit).to.equal(true);
    expect(t.mock.requests.map((r) => r.query.get('branch'))).to.deep.equal(['main', 'dev']);
  });
});
