import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ReadEnvelope } from '../../../core/schema/envelopes.js';
import type { UpstreamRequest } from '../../../core/plugin/upstream-types.js';
import { jsonReply } from '../../fixtures/atlassian/corpus-kit.js';
import { connectStdio } from '../../support/sdk-client.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { ACCOUNT, basicHeader, callTool } from './atlassian-calls.js';

const ATLASSIAN_ONLY = { content: JSON.stringify({ plugins: ['jira', 'confluence', 'bitbucket'] }) };

describe('Atlassian settings: base URLs, Data Center prefixes, credentials', function () {
  this.timeout(30_000);
  let mock: MockUpstream;
  const kernels: TestKernel[] = [];

  async function kernelWith(env: Record<string, string>): Promise<TestKernel> {
    const kernel = await startTestKernel({ configFile: ATLASSIAN_ONLY, env });
    kernels.push(kernel);
    return kernel;
  }

  /** Where a tool's request would go, without sending it. */
  function destination(kernel: TestKernel, tool: string, path: string): string {
    const definition = kernel.kernel.definitions().find((d) => d.spec.name === tool)!;
    return definition.upstream!.prepare(definition.spec.route!({ path }) as UpstreamRequest).url.href;
  }

  before(async () => {
    mock = await MockUpstream.start();
  });
  beforeEach(() => mock.reset());
  after(async () => {
    for (const kernel of kernels) await kernel.close();
    await mock.close();
  });

  it('sends Jira and Confluence to https://SITE.atlassian.net and Bitbucket to https://api.bitbucket.org/2.0 by default', async () => {
    const kernel = await kernelWith({ ...ACCOUNT });
    expect(destination(kernel, 'jira_get', '/rest/api/3/myself')).to.equal('https://acme.atlassian.net/rest/api/3/myself');
    expect(destination(kernel, 'conf_get', 'wiki/api/v2/spaces')).to.equal('https://acme.atlassian.net/wiki/api/v2/spaces');
    expect(destination(kernel, 'bb_get', '/workspaces')).to.equal('https://api.bitbucket.org/2.0/workspaces');
  });

  it('declares the {data, incomplete?} envelope on the three _get passthroughs and on no other passthrough', async () => {
    const kernel = await kernelWith({});
    const passthroughs = kernel.kernel.definitions().filter((d) => /^(jira|conf|bb)_(get|post|put|patch|delete|upload)$/.test(d.spec.name));
    const withEnvelope = passthroughs.filter((d) => d.spec.envelope !== undefined);
    expect(withEnvelope.map((d) => d.spec.name).sort()).to.deep.equal(['bb_get', 'bb_upload', 'conf_get', 'jira_get']);
    for (const d of withEnvelope) expect(d.spec.envelope).to.equal(ReadEnvelope);
  });

  it('keeps a Data Center context path from JIRA_BASE_URL', async () => {
    const kernel = await kernelWith({ ...ACCOUNT, JIRA_BASE_URL: `${mock.url}/jira` });
    mock.on('GET', '/jira/rest/api/2/myself', jsonReply('{"name":"mia"}'));
    expect(textOf(await kernel.call('jira_get', { path: '/rest/api/2/myself' }))).to.equal('name: mia');
    expect(mock.requests[0]!.headers.authorization).to.equal(basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN));
  });

  it('moves the Confluence boundary with CONFLUENCE_API_PREFIXES for Data Center', async () => {
    const kernel = await kernelWith({ ...ACCOUNT, CONFLUENCE_BASE_URL: `${mock.url}/confluence`, CONFLUENCE_API_PREFIXES: '/rest/' });
    mock.on('GET', '/confluence/rest/api/content/98310', jsonReply('{"id":"98310","type":"page"}'));
    expect(textOf(await kernel.call('conf_get', { path: '/rest/api/content/98310', jq: 'type' }))).to.equal('page');
    const refused = await kernel.call('conf_get', { path: '/wiki/api/v2/pages' });
    expect(refused.isError).to.equal(true);
    expect(textOf(refused)).to.contain('Confluence paths start with /rest/');
    expect(textOf(refused)).to.contain('CONFLUENCE_API_PREFIXES');
    expect(mock.requests).to.have.length(1);
  });

  it('prepends the first of BITBUCKET_API_PREFIXES for Bitbucket Data Center, and keeps a path under any of them', async () => {
    const kernel = await kernelWith({ ...ACCOUNT, BITBUCKET_BASE_URL: `${mock.url}/bitbucket`, BITBUCKET_API_PREFIXES: '/rest/api/1.0, /rest/api/latest/' });
    mock.on('GET', '/bitbucket/rest/api/1.0/projects', jsonReply('{"size":0,"values":[],"isLastPage":true}'));
    mock.on('GET', '/bitbucket/rest/api/latest/projects', jsonReply('{"size":0,"values":[],"isLastPage":true}'));
    expect(textOf(await kernel.call('bb_get', { path: '/projects', jq: 'isLastPage' }))).to.equal('true');
    expect(textOf(await kernel.call('bb_get', { path: '/rest/api/latest/projects', jq: 'size' }))).to.equal('0');
    expect(mock.requests.map((r) => r.path)).to.deep.equal(['/bitbucket/rest/api/1.0/projects', '/bitbucket/rest/api/latest/projects']);
  });

  it('starts without credentials; each tool then says what to set, before any request', async () => {
    const kernel = await kernelWith({ JIRA_BASE_URL: mock.url, BITBUCKET_BASE_URL: mock.url });
    const jira = await kernel.call('jira_get', { path: '/rest/api/3/myself' });
    expect(jira.isError).to.equal(true);
    expect(textOf(jira)).to.contain('Code: missing_credentials');
    expect(textOf(jira)).to.contain('Jira is not configured: set ATLASSIAN_USER_EMAIL, ATLASSIAN_API_TOKEN');
    const confluence = textOf(await kernel.call('conf_post', { path: '/wiki/api/v2/pages', body: {} }));
    expect(confluence).to.contain('set ATLASSIAN_SITE_NAME (or CONFLUENCE_BASE_URL), ATLASSIAN_USER_EMAIL, ATLASSIAN_API_TOKEN');
    const bitbucket = textOf(await kernel.call('bb_get', { path: '/user' }));
    expect(bitbucket).to.contain('ATLASSIAN_BITBUCKET_USERNAME and ATLASSIAN_BITBUCKET_APP_PASSWORD');
    expect(mock.requests).to.have.length(0);
  });

  it('explains a site name given as a host name instead of failing start-up', async () => {
    const kernel = await kernelWith({ ...ACCOUNT, ATLASSIAN_SITE_NAME: 'acme.atlassian.net' });
    const text = textOf(await kernel.call('jira_get', { path: '/rest/api/3/myself' }));
    expect(text).to.contain('ATLASSIAN_SITE_NAME "acme.atlassian.net" is not an Atlassian site name');
    expect(text).to.contain('set JIRA_BASE_URL');
  });

  it('fails start-up on a prefix list that is not paths, naming the setting', async () => {
    let failure: unknown;
    try {
      await kernelWith({ JIRA_API_PREFIXES: 'rest' });
    } catch (error) {
      failure = error;
    }
    expect((failure as Error | undefined)?.message).to.contain('JIRA_API_PREFIXES holds "rest", which is not a path prefix');
  });

  it('uses an Atlassian API token for Bitbucket before an app password, as the reference does', async () => {
    const both = await kernelWith({
      ...ACCOUNT,
      ATLASSIAN_BITBUCKET_USERNAME: 'mia-k',
      ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-1',
      BITBUCKET_BASE_URL: mock.url,
    });
    mock.on('GET', '/2.0/user', jsonReply('{"nickname":"mia"}'));
    await both.call('bb_get', { path: '/user' });
    expect(mock.requests[0]!.headers.authorization).to.equal(basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN));
    const bb = (k: TestKernel): string => k.kernel.definitions().find((d) => d.spec.name === 'bb_get')!.upstream!.identity.credential;
    expect(bb(both)).to.equal('ATLASSIAN_API_TOKEN');
    const appPassword = await kernelWith({ ATLASSIAN_BITBUCKET_USERNAME: 'mia-k', ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-1' });
    expect(bb(appPassword)).to.equal('ATLASSIAN_BITBUCKET_APP_PASSWORD');
  });

  it('honours ATLASSIAN_REQUEST_TIMEOUT and names it when a request times out', async () => {
    const kernel = await kernelWith({ ...ACCOUNT, JIRA_BASE_URL: mock.url, ATLASSIAN_REQUEST_TIMEOUT: '250' });
    mock.on('GET', '/rest/api/3/myself', { delayMs: 5000, body: { late: true } });
    const result = await kernel.call('jira_get', { path: '/rest/api/3/myself' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('Code: upstream_timeout');
    expect(textOf(result)).to.contain('within 250 ms (ATLASSIAN_REQUEST_TIMEOUT)');
  });

  it("reads each product's section of ~/.mcp/configs.json under the reference servers' names", async () => {
    const home = mkdtempSync(join(tmpdir(), 'atlassian-home-'));
    mkdirSync(join(home, '.mcp'));
    writeFileSync(
      join(home, '.mcp', 'configs.json'),
      JSON.stringify({
        'atlassian-jira': { environments: { ...ACCOUNT, JIRA_BASE_URL: mock.url } },
        '@aashari/mcp-server-atlassian-bitbucket': {
          environments: { ATLASSIAN_BITBUCKET_USERNAME: 'mia-k', ATLASSIAN_BITBUCKET_APP_PASSWORD: 'from-configs-json', BITBUCKET_BASE_URL: mock.url },
        },
      }),
    );
    const session = await connectStdio({ env: { HOME: home } });
    try {
      mock.on('GET', '/rest/api/3/myself', jsonReply('{"ok":1}'));
      mock.on('GET', '/2.0/user', jsonReply('{"ok":2}'));
      expect((await callTool(session.client, 'jira_get', { path: '/rest/api/3/myself' })).text).to.equal('ok: 1');
      expect((await callTool(session.client, 'bb_get', { path: '/user' })).text).to.equal('ok: 2');
      expect(mock.requests.map((r) => r.headers.authorization)).to.deep.equal([
        basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN),
        basicHeader('mia-k', 'from-configs-json'),
      ]);
    } finally {
      await session.close();
    }
  });
});
