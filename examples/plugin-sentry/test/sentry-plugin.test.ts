import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';
import { SentryPlugin } from '../src/index.js';
import { API_PREFIX, ISSUES, serveSentry } from './sentry-api.js';

const TOKEN = 'sntrys_example-token-0000';

describe('sentry plugin: issues paged by cursor', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    kernel = await startTestKernel({ plugins: [SentryPlugin], env: { SENTRY_API_URL: `${mock.url}${API_PREFIX}`, SENTRY_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: 'true' } });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    serveSentry(mock);
  });

  it('walks every page with nextCursor, from the first to the last (null), with the bearer token', async () => {
    const client = await kernel.connect();
    const seen: unknown[] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | null | undefined;
    do {
      const result = await client.callTool({ name: 'sentry_list_issues', arguments: { organization: 'acme', project: 'web', ...(cursor ? { cursor } : {}) } });
      const structured = result.structuredContent as { data: unknown[]; nextCursor: string | null };
      seen.push(...structured.data);
      cursor = structured.nextCursor;
      cursors.push(cursor);
    } while (cursor !== null);
    expect(seen).to.deep.equal(ISSUES);
    expect(cursors).to.deep.equal(['1700000000000:2:0', '1700000000000:4:0', null]);
    expect(mock.requests.map((r) => r.url)).to.deep.equal([
      `${API_PREFIX}/projects/acme/web/issues/`,
      `${API_PREFIX}/projects/acme/web/issues/?cursor=1700000000000%3A2%3A0`,
      `${API_PREFIX}/projects/acme/web/issues/?cursor=1700000000000%3A4%3A0`,
    ]);
    expect(mock.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).to.equal(true);
  });

  it('shows the same {data, nextCursor} in the text, nextCursor first', async () => {
    const text = textOf(await kernel.call('sentry_list_issues', { organization: 'acme', project: 'web', jq: '[*].shortId', outputFormat: 'json' }));
    expect(JSON.parse(text)).to.deep.equal({ nextCursor: '1700000000000:2:0', data: ['WEB-1', 'WEB-2'] });
    expect(text.indexOf('nextCursor')).to.be.lessThan(text.indexOf('data'));
  });

  it('reads any path under /api/0 with sentry_get', async () => {
    const result = await kernel.call('sentry_get', { path: '/organizations/acme/issues/4502/', jq: 'title', outputFormat: 'json' });
    expect(textOf(result)).to.equal('"TypeError: Cannot read properties of undefined (reading \'naïve\')"');
  });
});

describe('sentry plugin: policy rules match paths as Sentry writes them, /api/0 included', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    serveSentry(mock);
    const dir = mkdtempSync(join(tmpdir(), 'sentry-policy-'));
    writeFileSync(join(dir, 'policy.yaml'), 'version: 1\nrules:\n  - { id: no-billing-project, effect: deny, match: { paths: ["/api/0/projects/acme/billing/*"] } }\n  - { id: rest, effect: allow }\n');
    kernel = await startTestKernel({ plugins: [SentryPlugin], env: { SENTRY_API_URL: `${mock.url}${API_PREFIX}`, SENTRY_TOKEN: TOKEN, MCP_POLICY_FILE: join(dir, 'policy.yaml') } });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });

  it('refuses a project the policy denies, before any request', async () => {
    const result = await kernel.call('sentry_list_issues', { organization: 'acme', project: 'billing' });
    expect(textOf(result)).to.match(/^Error: The policy refused sentry_list_issues \(GET \/api\/0\/projects\/acme\/billing\/issues\) for local: .*\(rule no-billing-project;/);
    expect(mock.requests).to.deep.equal([]);
    expect((await kernel.call('sentry_list_issues', { organization: 'acme', project: 'web' })).isError).to.equal(undefined);
  });
});
