import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Kernel } from '../../../core/kernel/kernel.js';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { createLogger } from '../../../core/logging/logger.js';
import { openStore } from '../../../core/store/open-store.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { createArtifactStore } from '../../../plugins/artifacts/artifact-service.js';
import { resolveConfig } from '../../../server/bootstrap/resolve-config.js';
import { StoreWithOutage } from '../../support/store-with-outage.js';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { MockUpstream, type RecordedRequest } from '../../../server/testing/mock-upstream.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { enforceLimit, type LimitStyle } from '../../support/rate-limited-vendor.js';
import { sharedRedisUrl, uniqueNamespace } from '../../support/redis.js';
import { parseExposition, valueOf } from '../../support/prometheus-text.js';

/**
 * The rate-limit governor, from the outside: official SDK clients over Streamable HTTP and in-process, vendors
 * as loopback mocks that enforce a limit the way each documents it (rate-limited-vendor.ts). Short windows (2 s)
 * keep it quick; nothing is asserted about time beyond what a caller sees.
 */

const GITHUB_TOKEN = 'ghp_governorTestToken0123456789';
const CIRCLECI_TOKEN = 'circle-governorToken0123456';
const ATLASSIAN_TOKEN = 'atlassian-governorToken0123';

interface StyleCase {
  style: LimitStyle;
  tool: string;
  /** The tool's arguments for call n, and the path the vendor sees. */
  args(n: number): Record<string, unknown>;
  path: RegExp;
}

const STYLES: StyleCase[] = [
  { style: 'github', tool: 'github_get', args: (n) => ({ path: `/repos/acme/app${n}` }), path: /^\/repos\/acme\/app\d+$/ },
  { style: 'atlassian', tool: 'jira_get', args: (n) => ({ path: `/rest/api/3/issue/PLAT-${n}` }), path: /^\/rest\/api\/3\/issue\/PLAT-\d+$/ },
  {
    style: 'circleci',
    tool: 'circleci_get',
    args: (n) => ({ path: `/project/gh/acme/app${n}/schedule` }),
    path: /^\/api\/v2\/project\/gh\/acme\/app\d+\/schedule$/,
  },
];

const ok = (request: RecordedRequest): { status: number; body: unknown } => ({ status: 200, body: { path: request.path, items: [], next_page_token: null } });
const isRateLimited = (result: CallToolResult): boolean => result.isError === true && textOf(result).includes('upstream_rate_limited');

/** `agents` clients, each making its share of `calls` one after another, all at once; every result, in order of call number. */
async function burst(clients: readonly Client[], calls: number, tool: string, args: (n: number) => Record<string, unknown>): Promise<CallToolResult[]> {
  const results: CallToolResult[] = [];
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (let n = next++; n < calls; n = next++) results[n] = (await client.callTool({ name: tool, arguments: args(n) })) as CallToolResult;
    }),
  );
  return results;
}

function vendorEnv(github: string, jira: string, circleci: string): Record<string, string> {
  return {
    GITHUB_API_URL: github,
    GITHUB_TOKEN,
    JIRA_BASE_URL: jira,
    ATLASSIAN_USER_EMAIL: 'governor@example.com',
    ATLASSIAN_API_TOKEN: ATLASSIAN_TOKEN,
    CIRCLECI_BASE_URL: circleci,
    CIRCLECI_TOKEN,
    MCP_FENCE: 'false',
  };
}

describe('rate-limit governor: 200 calls from 8 agents over HTTP never see a limit that could be waited out', function () {
  this.timeout(120_000);
  const mocks: Record<LimitStyle, MockUpstream> = {} as Record<LimitStyle, MockUpstream>;
  let server: HttpServerProcess;
  const clients: Client[] = [];

  before(async () => {
    for (const { style } of STYLES) mocks[style] = await MockUpstream.start();
    server = await startHttpServer({ env: vendorEnv(mocks.github.url, mocks.atlassian.url, mocks.circleci.url) });
    for (let i = 0; i < 8; i++) clients.push(await connectHttp(server.url));
  });
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await server?.stop();
    for (const mock of Object.values(mocks)) await mock?.close();
  });

  for (const { style, tool, args, path } of STYLES) {
    it(`${style}: a limit of 50 per 2-second window, as ${style === 'github' ? 'GitHub (x-ratelimit-*, 403 and 429)' : `${style} (429 + Retry-After)`} enforces it`, async () => {
      const mock = mocks[style];
      mock.on('GET', '*', (request) => ok(request));
      const ledger = enforceLimit(mock, 'GET', path, { style, limit: 50, windowMs: 2000, ok });
      const results = await burst(clients, 200, tool, args);
      const limited = results.filter(isRateLimited);
      expect(limited.map(textOf), 'rate-limit errors reaching the agents').to.deep.equal([]);
      expect(results.filter((r) => r.isError).map(textOf)).to.deep.equal([]);
      // Every call reached the vendor and was answered within its limit: 200 calls need four windows at least.
      expect(ledger.admitted).to.equal(200);
      expect(ledger.mostInOneWindow).to.be.at.most(50);
      expect(ledger.windows.size).to.be.at.least(4);
    });
  }

  it('reports at /metrics the budget GitHub said was left, and the waits by vendor and reason', async () => {
    const response = await fetch(server.url.replace(/\/mcp$/, '/metrics'));
    const samples = parseExposition(await response.text());
    const remaining = valueOf(samples, 'mcp_devtools_upstream_rate_limit_remaining', { vendor: 'github', resource: 'core' });
    expect(remaining).to.be.a('number').within(0, 49);
    // Every vendor's burst was held back somewhere: paced or waiting for a reset (GitHub), or told to retry (all three).
    for (const vendor of ['github', 'jira', 'circleci']) {
      const waits = samples.filter((s) => s.name === 'mcp_devtools_upstream_rate_limit_wait_seconds_count' && s.labels.vendor === vendor);
      expect(
        waits.reduce((sum, s) => sum + s.value, 0),
        `${vendor} waits`,
      ).to.be.above(0);
    }
    // GitHub says what is left: its low budget was spread out before it was spent.
    expect(valueOf(samples, 'mcp_devtools_upstream_rate_limit_wait_seconds_count', { vendor: 'github', reason: 'pace' })).to.be.above(0);
  });
});

describe('rate-limit governor: what a caller sees', function () {
  this.timeout(60_000);
  let mock: MockUpstream;

  before(async () => {
    mock = await MockUpstream.start();
  });
  after(async () => {
    await mock.close();
  });
  beforeEach(() => mock.reset());

  /** A kernel of its own per test, with its own credential: a limit one test meets is not the next one's. */
  async function kernelFor(token: string, env: Record<string, string> = {}): Promise<TestKernel> {
    return startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['github', 'circleci'] }) },
      env: {
        GITHUB_API_URL: mock.url,
        GITHUB_TOKEN: token,
        CIRCLECI_BASE_URL: mock.url,
        CIRCLECI_TOKEN: `circle-${token}`,
        MCP_TOOLSETS: 'all',
        MCP_FENCE: 'false',
        ...env,
      },
    });
  }

  it('without the governor (MCP_RATE_LIMIT_GOVERNOR=false) the same kind of burst does reach agents as 429s: the limit is real', async () => {
    const kernel = await kernelFor('ghp_ungovernedToken0123456789', { MCP_RATE_LIMIT_GOVERNOR: 'false' });
    try {
      mock.on('GET', '*', (request) => ok(request));
      enforceLimit(mock, 'GET', /^\/repos\/acme\/app\d+$/, { style: 'github', limit: 10, windowMs: 2000, ok });
      const clients = await Promise.all(Array.from({ length: 8 }, () => kernel.connect()));
      const results = await burst(clients, 40, 'github_get', (n) => ({ path: `/repos/acme/app${n}` }));
      expect(results.filter(isRateLimited)).to.not.deep.equal([]);
    } finally {
      await kernel.close();
    }
  });

  it('one agent spending a GitHub budget to the end: the vendor never has to refuse a request', async () => {
    const kernel = await kernelFor('ghp_oneAgentToken01234567890', { MCP_RATE_LIMIT_PACE_PERCENT: '50' });
    try {
      mock.on('GET', '*', (request) => ok(request));
      const ledger = enforceLimit(mock, 'GET', /^\/repos\/acme\/app\d+$/, { style: 'github', limit: 10, windowMs: 2000, ok });
      const results = await burst([await kernel.connect()], 25, 'github_get', (n) => ({ path: `/repos/acme/app${n}` }));
      expect(results.filter((r) => r.isError).map(textOf)).to.deep.equal([]);
      expect(ledger.admitted).to.equal(25);
      expect(ledger.refused, 'requests the vendor refused').to.equal(0);
    } finally {
      await kernel.close();
    }
  });

  it('a reset far off fails at once, with when to retry as a moment and in seconds; the next call is not even sent', async () => {
    const kernel = await kernelFor('ghp_farResetToken01234567890');
    try {
      const client = await kernel.connect();
      const reset = Math.floor(Date.now() / 1000) + 1800;
      mock.on('GET', '/repos/acme/far', {
        status: 403,
        headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset), 'x-ratelimit-resource': 'core' },
        body: { message: 'API rate limit exceeded for user ID 1.' },
      });
      const first = (await client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/far' } })) as CallToolResult;
      expect(first.isError).to.equal(true);
      const at = new Date(reset * 1000).toISOString().replace('.000Z', 'Z');
      expect(textOf(first)).to.match(new RegExp(`rate limit exceeded\\. Retry after 1[78]\\d\\d seconds \\(at ${at}\\)\\.`));
      expect(textOf(first)).to.contain('Code: upstream_rate_limited');

      const second = (await client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/other' } })) as CallToolResult;
      expect(second.isError).to.equal(true);
      expect(textOf(second)).to.match(
        new RegExp(
          `GitHub: GET /repos/acme/other was not sent: its rate-limit budget for this credential is spent until the window resets, further off than the 30 seconds a request is held \\(MCP_RATE_LIMIT_MAX_WAIT_SECONDS\\)\\. Retry after 1[78]\\d\\d seconds \\(at ${at}\\)\\.`,
        ),
      );
      expect(textOf(second)).to.contain('Code: upstream_rate_limited');
      expect(mock.requests.map((r) => r.path)).to.deep.equal(['/repos/acme/far']);
      // Another credential of the same vendor has a budget of its own.
      const other = await kernelFor('ghp_anotherToken012345678901');
      try {
        mock.on('GET', '/repos/acme/other', { status: 200, body: { name: 'other' } });
        expect((await other.call('github_get', { path: '/repos/acme/other' })).isError).to.not.equal(true);
      } finally {
        await other.close();
      }
    } finally {
      await kernel.close();
    }
  });

  /** GitHub's GraphQL rate limit: a 200 whose `errors` say RATE_LIMITED, with the graphql budget's headers (remaining 0). */
  const graphqlLimited = (resetEpochSeconds: number): { status: number; headers: Record<string, string>; body: unknown } => ({
    status: 200,
    headers: {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '5000',
      'x-ratelimit-reset': String(resetEpochSeconds),
      'x-ratelimit-resource': 'graphql',
    },
    body: { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit already exceeded for user ID 1.' }] },
  });

  it("GraphQL's RATE_LIMITED inside a 200 with a near reset is waited out and sent again: the agent gets the data", async () => {
    const kernel = await kernelFor('ghp_graphqlNearToken0123456789');
    try {
      let posts = 0;
      mock.on('POST', '/graphql', () =>
        ++posts === 1 ? graphqlLimited(Math.floor(Date.now() / 1000) + 2) : { status: 200, body: { data: { viewer: { login: 'octocat' } } } },
      );
      const result = await kernel.call('github_graphql', { query: 'query { viewer { login } }' });
      expect(result.isError, textOf(result)).to.not.equal(true);
      expect(textOf(result)).to.contain('octocat');
      expect(posts).to.equal(2);
    } finally {
      await kernel.close();
    }
  });

  it("GraphQL's RATE_LIMITED inside a 200 with a far reset fails as a rate limit, saying when; the next query is not sent, REST still is", async () => {
    const kernel = await kernelFor('ghp_graphqlFarToken01234567890');
    try {
      const reset = Math.floor(Date.now() / 1000) + 1800;
      mock.on('POST', '/graphql', graphqlLimited(reset));
      const first = await kernel.call('github_graphql', { query: 'query { viewer { login } }' });
      expect(first.isError).to.equal(true);
      const at = new Date(reset * 1000).toISOString().replace('.000Z', 'Z');
      expect(textOf(first)).to.contain('Code: upstream_rate_limited');
      expect(textOf(first)).to.match(new RegExp(`rate limit exceeded\\. Retry after 1[78]\\d\\d seconds \\(at ${at}\\)\\.`));
      const second = await kernel.call('github_graphql', { query: 'query { viewer { name } }' });
      expect(textOf(second)).to.match(/was not sent: its rate-limit budget for this credential is spent until the window resets/);
      expect(mock.requests.filter((r) => r.path === '/graphql')).to.have.length(1);
      // The REST budget (core) is another one.
      mock.on('GET', '/repos/acme/app', { status: 200, body: { full_name: 'acme/app' } });
      expect((await kernel.call('github_get', { path: '/repos/acme/app' })).isError).to.not.equal(true);
    } finally {
      await kernel.close();
    }
  });

  it("CircleCI's 429 with a Retry-After beyond MCP_RATE_LIMIT_MAX_WAIT_SECONDS fails at once, sent once", async () => {
    const kernel = await kernelFor('ghp_circleFarToken0123456789', { MCP_RATE_LIMIT_MAX_WAIT_SECONDS: '5' });
    try {
      mock.on('GET', '/api/v2/me', { status: 429, headers: { 'retry-after': '6' }, body: { message: 'Rate limit exceeded' } });
      const result = await kernel.call('circleci_get', { path: '/me' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.match(/rate limit exceeded\. Retry after 6 seconds \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\./);
      expect(mock.requests).to.have.length(1);
    } finally {
      await kernel.close();
    }
  });

  it('a write refused with 429 is sent again once the Retry-After has passed (a 429 means it was not done)', async () => {
    const kernel = await kernelFor('ghp_writeRetryToken012345678');
    try {
      let posts = 0;
      mock.on('POST', '/api/v2/project/gh/acme/app/pipeline', () =>
        ++posts === 1
          ? { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Rate limit exceeded' } }
          : { status: 201, body: { id: 'p1', number: 7 } },
      );
      const result = await kernel.call('circleci_post', { path: '/project/gh/acme/app/pipeline', body: { branch: 'main' } });
      expect(result.isError, textOf(result)).to.not.equal(true);
      expect(posts).to.equal(2);
      // A write that failed otherwise is still sent once.
      mock.on('POST', '/api/v2/project/gh/acme/app/pipeline', { status: 503, body: { message: 'unavailable' } });
      mock.requests.length = 0;
      expect((await kernel.call('circleci_post', { path: '/project/gh/acme/app/pipeline', body: { branch: 'main' } })).isError).to.equal(true);
      expect(mock.requests).to.have.length(1);
    } finally {
      await kernel.close();
    }
  });

  it('8 callers held for the same Retry-After do not all send again at the same instant (a bounded random jitter)', async () => {
    const kernel = await kernelFor('ghp_herdJitterToken0123456789');
    try {
      const clients = await Promise.all(Array.from({ length: 8 }, () => kernel.connect()));
      const refused = new Set<string>();
      const sentAt: number[] = [];
      // Each path's first request meets the limit: eight callers told, within a few milliseconds, to wait 1 s.
      mock.on('GET', /^\/repos\/acme\/herd\d$/, (request) => {
        if (!refused.has(request.path)) {
          refused.add(request.path);
          return { status: 429, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit.' } };
        }
        sentAt.push(performance.now());
        return { status: 200, body: { ok: true } };
      });
      const results = (await Promise.all(
        clients.map((client, n) => client.callTool({ name: 'github_get', arguments: { path: `/repos/acme/herd${n}` } })),
      )) as CallToolResult[];
      expect(results.filter((r) => r.isError).map(textOf)).to.deep.equal([]);
      expect(sentAt).to.have.length(8);
      const spread = Math.max(...sentAt) - Math.min(...sentAt);
      // Without jitter all eight wake for the same moment, within a few milliseconds; with it, over up to a second.
      expect(spread, `the 8 resends spread over ${spread.toFixed(1)} ms`).to.be.above(100);
      expect(spread).to.be.below(1500);
    } finally {
      await kernel.close();
    }
  });

  it('cancelling a call while it waits for a Retry-After ends it, and the request is not sent again', async () => {
    const kernel = await kernelFor('ghp_cancelWaitToken012345678');
    try {
      const client = await kernel.connect();
      let refused!: () => void;
      const wasRefused = new Promise<void>((resolve) => (refused = resolve));
      mock.on('GET', '/repos/acme/slow', () => {
        refused();
        return { status: 429, headers: { 'retry-after': '2' }, body: { message: 'You have exceeded a secondary rate limit.' } };
      });
      const cancel = new AbortController();
      const call = client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/slow' } }, { signal: cancel.signal }).then(
        () => 'answered',
        (error: Error) => `rejected: ${error.message}`,
      );
      await wasRefused;
      cancel.abort(new Error('the agent moved on'));
      expect(await call).to.match(/^rejected/);
      // Past the Retry-After: the cancelled call sent nothing more, and its log line says it was cancelled.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(mock.requests.filter((r) => r.path === '/repos/acme/slow')).to.have.length(1);
      const line = kernel.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.tool === 'github_get' && l.outcome !== undefined);
      expect(line?.outcome).to.equal('cancelled');
    } finally {
      await kernel.close();
    }
  });
});

/** Two kernels on one GitHub credential and one real Redis, against one mock: started before the suite, closed after it. */
function twoReplicasOnRedis(token: string): { mock: () => MockUpstream; replicas: TestKernel[] } {
  let mock: MockUpstream | undefined;
  const replicas: TestKernel[] = [];
  before(async () => {
    mock = await MockUpstream.start();
    const env = {
      GITHUB_API_URL: mock.url,
      GITHUB_TOKEN: token,
      MCP_STORE_URL: await sharedRedisUrl(),
      MCP_STORE_NAMESPACE: uniqueNamespace('governor'),
      MCP_TOOLSETS: 'all',
      MCP_FENCE: 'false',
    };
    for (let i = 0; i < 2; i++) replicas.push(await startTestKernel({ configFile: { content: JSON.stringify({ plugins: ['github'] }) }, env }));
  });
  after(async () => {
    for (const replica of replicas) await replica.close();
    await mock?.close();
  });
  return { mock: () => mock!, replicas };
}

describe('rate-limit governor: two replicas share one budget through Redis', function () {
  this.timeout(60_000);
  const { mock: upstream, replicas } = twoReplicasOnRedis('ghp_replicaSharedToken01234567');
  let mock: MockUpstream;
  beforeEach(() => {
    mock = upstream();
    mock.reset();
  });

  it('a limit one replica met far off: the other refuses at once without sending', async () => {
    const [a, b] = replicas as [TestKernel, TestKernel];
    mock.on('GET', '/repos/acme/shared', { status: 429, headers: { 'retry-after': '600' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    const first = await (await a.connect()).callTool({ name: 'github_get', arguments: { path: '/repos/acme/shared' } });
    expect(textOf(first as CallToolResult)).to.match(/Retry after 600 seconds/);
    const second = (await (await b.connect()).callTool({ name: 'github_get', arguments: { path: '/repos/acme/elsewhere' } })) as CallToolResult;
    expect(second.isError).to.equal(true);
    expect(textOf(second)).to.match(
      /GitHub: GET \/repos\/acme\/elsewhere was not sent: it answered a rate limit for this credential[^]*Retry after (599|600) seconds/,
    );
    expect(mock.requests.map((r) => r.path)).to.deep.equal(['/repos/acme/shared']);
  });
});

describe('rate-limit governor: two replicas on Redis under a near limit', function () {
  this.timeout(60_000);
  const { mock: upstream, replicas } = twoReplicasOnRedis('ghp_replicaBurstToken012345678');
  let mock: MockUpstream;
  beforeEach(() => {
    mock = upstream();
  });

  it('4 agents on each replica, one credential: 80 calls, no rate-limit error, the vendor never over its limit', async () => {
    mock.on('GET', '*', (request) => ok(request));
    const ledger = enforceLimit(mock, 'GET', /^\/repos\/acme\/app\d+$/, { style: 'github', limit: 20, windowMs: 2000, ok });
    const clients = await Promise.all(replicas.flatMap((replica) => Array.from({ length: 4 }, () => replica.connect())));
    const results = await burst(clients, 80, 'github_get', (n) => ({ path: `/repos/acme/app${n}` }));
    expect(results.filter((r) => r.isError).map(textOf)).to.deep.equal([]);
    expect(ledger.admitted).to.equal(80);
    expect(ledger.windows.size).to.be.at.least(4);
  });
});

/**
 * A GitHub kernel on the given store (the test kit opens its own store; this one is started by hand to run on
 * one the test watches), its log lines into `logs`.
 */
async function githubKernelOn(store: KeyValueStore, mock: MockUpstream, token: string, logs: string[]): Promise<Kernel> {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-test-'));
  writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['github'] }));
  const env = { GITHUB_API_URL: mock.url, GITHUB_TOKEN: token, MCP_RAW_RESPONSE_DIR: join(cwd, 'raw'), MCP_TOOLSETS: 'all' };
  const { plugins, settings } = await resolveConfig({ cwd, home: cwd, env });
  const logger = createLogger({ level: 'info', secrets: settings.secretValues(), destination: { write: (line: string) => logs.push(line) } });
  return Kernel.start({ plugins, settings, logger, store, artifactStore: createArtifactStore });
}

describe('rate-limit governor: when the store fails', function () {
  this.timeout(30_000);
  let mock: MockUpstream;
  let kernel: Kernel;
  let store: CountedOutage;
  const logs: string[] = [];

  /** The store with an outage switch, counting what the governor asks of it. */
  class CountedOutage extends StoreWithOutage {
    asked = 0;
    override get<T>(namespace: string, key: string): Promise<T | undefined> {
      if (namespace === 'rate-limits') this.asked++;
      return super.get<T>(namespace, key);
    }
  }

  before(async () => {
    mock = await MockUpstream.start();
    store = new CountedOutage(await openStore('memory://'));
    kernel = await githubKernelOn(store, mock, 'ghp_outageGovernorToken012345', logs);
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });

  it('calls go ungoverned rather than fail, a near Retry-After is still waited out, and the store is not asked again at once', async () => {
    store.down = true;
    let answers = 0;
    mock.on('GET', /^\/repos\/acme\/down\d$/, () =>
      ++answers === 1
        ? { status: 429, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit.' } }
        : { status: 200, body: { ok: true } },
    );
    for (let n = 0; n < 3; n++) {
      const result = await kernel.call('github_get', { path: `/repos/acme/down${n}` }, LOCAL_PRINCIPAL);
      expect(result.isError, textOf(result)).to.equal(undefined);
    }
    expect(answers).to.equal(4);
    // Asked once, found down, then left alone for a while: one warning, not one per request.
    expect(store.asked).to.equal(1);
    expect(logs.filter((l) => l.includes('the rate-limit budget could not be read or written'))).to.have.length(1);
  });
});

describe('rate-limit governor: on the store of one process (memory://)', function () {
  this.timeout(30_000);
  let mock: MockUpstream;
  let kernel: Kernel;
  let asked = 0;

  before(async () => {
    mock = await MockUpstream.start();
    // The real memory store, counting the governor's reads of it.
    const store = await openStore('memory://');
    const read = store.get.bind(store);
    store.get = <T>(namespace: string, key: string): Promise<T | undefined> => {
      if (namespace === 'rate-limits') asked++;
      return read<T>(namespace, key);
    };
    kernel = await githubKernelOn(store, mock, 'ghp_localStoreGovernorToken0123', []);
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });

  it('no budget is read while no answer said anything of one; a limit met is still held for the next call, unsent', async () => {
    mock.on('GET', /^\/repos\/acme\/quiet\d$/, { status: 200, body: { ok: true } });
    for (let n = 0; n < 3; n++) {
      const result = await kernel.call('github_get', { path: `/repos/acme/quiet${n}` }, LOCAL_PRINCIPAL);
      expect(result.isError, textOf(result)).to.equal(undefined);
    }
    expect(asked).to.equal(0);
    mock.on('GET', '/repos/acme/limited', { status: 429, headers: { 'retry-after': '600' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    expect(textOf(await kernel.call('github_get', { path: '/repos/acme/limited' }, LOCAL_PRINCIPAL))).to.match(/Retry after 600 seconds/);
    const held = await kernel.call('github_get', { path: '/repos/acme/quiet0' }, LOCAL_PRINCIPAL);
    expect(textOf(held)).to.match(/GitHub: GET \/repos\/acme\/quiet0 was not sent: it answered a rate limit for this credential/);
    expect(mock.requests.map((r) => r.path)).to.deep.equal(['/repos/acme/quiet0', '/repos/acme/quiet1', '/repos/acme/quiet2', '/repos/acme/limited']);
  });
});
