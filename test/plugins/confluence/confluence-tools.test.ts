import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { ACCOUNT, basicHeader, callTool } from '../atlassian/atlassian-calls.js';

describe('conf_* end to end (SDK client over stdio, loopback Confluence on the Jira site)', function () {
  this.timeout(30_000);
  let mock: MockUpstream;
  let session: StdioSession;

  before(async () => {
    mock = await MockUpstream.start();
    // One site serves both products, as on Atlassian Cloud.
    session = await connectStdio({ env: { ...ACCOUNT, JIRA_BASE_URL: mock.url, CONFLUENCE_BASE_URL: mock.url } });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('lists conf_get read-only and conf_delete destructive', async () => {
    const tools = new Map((await session.client.listTools()).tools.map((t) => [t.name, t]));
    for (const verb of ['get', 'post', 'put', 'patch', 'delete']) expect(tools.has(`conf_${verb}`), verb).to.equal(true);
    expect(tools.get('conf_get')!.annotations).to.include({ readOnlyHint: true });
    expect(tools.get('conf_delete')!.annotations).to.include({ readOnlyHint: false, destructiveHint: true });
    expect(tools.get('conf_get')!.title).to.equal('Confluence GET Request');
  });

  it('conf_get reads a page with the site credentials and projects it', async () => {
    mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(payload('confluence/page.json')));
    const { text, isError } = await callTool(session.client, 'conf_get', {
      path: '/wiki/api/v2/pages/163841',
      queryParams: { 'body-format': 'storage' },
      jq: '{title: title, version: version.number}',
    });
    expect(isError).to.equal(false);
    expect(text).to.equal('title: "Runbook: checkout deploys"\nversion: 7');
    expect(mock.requests[0]!.url).to.equal('/wiki/api/v2/pages/163841?body-format=storage');
    expect(mock.requests[0]!.headers.authorization).to.equal(basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN));
  });

  it('conf_post, conf_put, conf_patch and conf_delete send their methods and bodies', async () => {
    mock.on('POST', '/wiki/api/v2/pages', jsonReply(payload('confluence/created-page.json'), 200));
    mock.on('PUT', '/wiki/api/v2/pages/163841', jsonReply('{"id":"163841","version":{"number":8}}'));
    mock.on('PATCH', '/wiki/api/v2/spaces/65538', { status: 204 });
    mock.on('DELETE', '/wiki/api/v2/pages/163862', { status: 204 });
    const page = { spaceId: '65538', status: 'current', title: 'Release notes', body: { representation: 'storage', value: '<p>Draft</p>' } };
    expect((await callTool(session.client, 'conf_post', { path: '/wiki/api/v2/pages', body: page, jq: 'id' })).text).to.equal('"163862"');
    expect(
      (await callTool(session.client, 'conf_put', { path: '/wiki/api/v2/pages/163841', body: { version: { number: 8 } }, jq: 'version.number' })).text,
    ).to.equal('8');
    expect((await callTool(session.client, 'conf_patch', { path: '/wiki/api/v2/spaces/65538', body: { name: 'Eng' }, outputFormat: 'json' })).text).to.equal(
      '{}',
    );
    expect((await callTool(session.client, 'conf_delete', { path: '/wiki/api/v2/pages/163862' })).text).to.equal('');
    expect(mock.requests.map((r) => [r.method, r.path, r.body])).to.deep.equal([
      ['POST', '/wiki/api/v2/pages', JSON.stringify(page)],
      ['PUT', '/wiki/api/v2/pages/163841', '{"version":{"number":8}}'],
      ['PATCH', '/wiki/api/v2/spaces/65538', '{"name":"Eng"}'],
      ['DELETE', '/wiki/api/v2/pages/163862', ''],
    ]);
  });

  for (const [tool, path] of [
    ['conf_get', '/rest/api/3/issue/PLAT-1'],
    ['conf_delete', '/rest/api/3/issue/PLAT-1'],
    ['conf_get', '/wiki/../rest/api/3/myself'],
    ['conf_get', '/wiki%2F..%2Frest/api/3/myself'],
    ['jira_get', '/wiki/api/v2/spaces'],
  ] as const) {
    it(`keeps ${tool} off the other product's API on a shared site: ${path}`, async () => {
      const { text, isError } = await callTool(session.client, tool, { path });
      expect(isError).to.equal(true);
      expect(text).to.contain('Code: invalid_path');
      expect(mock.requests).to.have.length(0);
    });
  }

  it('reports a 404 with the Confluence error body', async () => {
    mock.on('GET', '/wiki/api/v2/pages/999', jsonReply(payload('confluence/not-found.json'), 404));
    const { text, isError } = await callTool(session.client, 'conf_get', { path: '/wiki/api/v2/pages/999' });
    expect(isError).to.equal(true);
    expect(text).to.match(/^Error: Confluence answered 404 Not Found for GET \/wiki\/api\/v2\/pages\/999\./);
    expect(text).to.contain('"code": "NOT_FOUND"');
  });
});
