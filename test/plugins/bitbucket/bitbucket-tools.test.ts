import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { jsonReply, payload, textReply } from '../../fixtures/atlassian/corpus-kit.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { basicHeader, callTool } from '../atlassian/atlassian-calls.js';

const APP_PASSWORD = { ATLASSIAN_BITBUCKET_USERNAME: 'mia-k', ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-ATBB-9c1e' };

describe('bb_* end to end (SDK client over stdio, loopback Bitbucket)', function () {
  this.timeout(30_000);
  let mock: MockUpstream;
  let session: StdioSession;

  before(async () => {
    mock = await MockUpstream.start();
    session = await connectStdio({ env: { ...APP_PASSWORD, BITBUCKET_BASE_URL: mock.url } });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('lists the five bb_* tools; bb_get is read-only, bb_delete destructive', async () => {
    const tools = new Map((await session.client.listTools()).tools.map((t) => [t.name, t]));
    for (const verb of ['get', 'post', 'put', 'patch', 'delete']) expect(tools.has(`bb_${verb}`), verb).to.equal(true);
    expect(tools.get('bb_get')!.annotations).to.include({ readOnlyHint: true, idempotentHint: true });
    expect(tools.get('bb_put')!.annotations).to.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(tools.get('bb_delete')!.annotations).to.include({ readOnlyHint: false, destructiveHint: true });
  });

  it('prefixes /2.0 and authenticates with the app password when no API token is set', async () => {
    mock.on('GET', '/2.0/repositories/acme', jsonReply(payload('bitbucket/repositories.json')));
    const { text, isError } = await callTool(session.client, 'bb_get', { path: '/repositories/acme', queryParams: { pagelen: '2' }, jq: 'values[*].slug' });
    expect(isError).to.equal(false);
    expect(text).to.equal('[2]: checkout-service,infra');
    expect(mock.requests[0]!.url).to.equal('/2.0/repositories/acme?pagelen=2');
    expect(mock.requests[0]!.headers.authorization).to.equal(
      basicHeader(APP_PASSWORD.ATLASSIAN_BITBUCKET_USERNAME, APP_PASSWORD.ATLASSIAN_BITBUCKET_APP_PASSWORD),
    );
  });

  it('does not prefix a path that already starts with /2.0', async () => {
    mock.on('GET', '/2.0/user', jsonReply('{"nickname":"mia"}'));
    expect((await callTool(session.client, 'bb_get', { path: '2.0/user' })).text).to.equal('nickname: mia');
    expect(mock.requests[0]!.path).to.equal('/2.0/user');
  });

  it('keeps a text/plain diff as one string, in both formats', async () => {
    const diff = payload('bitbucket/pr-diff.txt');
    mock.on('GET', '/2.0/repositories/acme/checkout-service/pullrequests/412/diff', textReply(diff, 'text/plain; charset=utf-8'));
    const json = await callTool(session.client, 'bb_get', { path: '/repositories/acme/checkout-service/pullrequests/412/diff', outputFormat: 'json' });
    expect(JSON.parse(json.text)).to.equal(diff);
    const toon = await callTool(session.client, 'bb_get', { path: '/repositories/acme/checkout-service/pullrequests/412/diff' });
    expect(toon.text).to.equal(JSON.stringify(diff));
  });

  it('bb_post, bb_put, bb_patch and bb_delete send their methods and bodies under /2.0', async () => {
    mock.on('POST', '/2.0/repositories/acme/checkout-service/pullrequests/412/comments', jsonReply(payload('bitbucket/created-comment.json'), 201));
    mock.on('PUT', '/2.0/repositories/acme/checkout-service/pullrequests/412', jsonReply('{"id":412,"title":"New"}'));
    mock.on('PATCH', '/2.0/repositories/acme/checkout-service', jsonReply('{"slug":"checkout-service"}'));
    mock.on('DELETE', '/2.0/repositories/acme/checkout-service/refs/branches/fix/plat-1421-body-size', { status: 204 });
    const comment = { content: { raw: 'LGTM 👍' } };
    expect(
      (await callTool(session.client, 'bb_post', { path: '/repositories/acme/checkout-service/pullrequests/412/comments', body: comment, jq: 'id' })).text,
    ).to.equal('556021334');
    expect(
      (await callTool(session.client, 'bb_put', { path: '/repositories/acme/checkout-service/pullrequests/412', body: { title: 'New' }, jq: 'title' })).text,
    ).to.equal('New');
    expect((await callTool(session.client, 'bb_patch', { path: '/repositories/acme/checkout-service', body: { description: 'x' } })).text).to.equal(
      'slug: checkout-service',
    );
    expect(
      (await callTool(session.client, 'bb_delete', { path: '/repositories/acme/checkout-service/refs/branches/fix/plat-1421-body-size', outputFormat: 'json' }))
        .text,
    ).to.equal('{}');
    expect(mock.requests.map((r) => [r.method, r.path, r.body])).to.deep.equal([
      ['POST', '/2.0/repositories/acme/checkout-service/pullrequests/412/comments', JSON.stringify(comment)],
      ['PUT', '/2.0/repositories/acme/checkout-service/pullrequests/412', '{"title":"New"}'],
      ['PATCH', '/2.0/repositories/acme/checkout-service', '{"description":"x"}'],
      ['DELETE', '/2.0/repositories/acme/checkout-service/refs/branches/fix/plat-1421-body-size', ''],
    ]);
  });

  it('refuses a path that would leave /2.0 without sending anything', async () => {
    for (const path of ['/2.0x/users', '/../1.0/user', '/repositories/%2e%2e/%2e%2e/internal']) {
      const { text, isError } = await callTool(session.client, 'bb_get', { path });
      expect(isError, path).to.equal(true);
      expect(text, path).to.contain('Code: invalid_path');
    }
    expect(mock.requests).to.have.length(0);
  });

  it('reports a 404 and a 403 with the Bitbucket error bodies, naming the credentials on 401', async () => {
    mock.on('GET', '/2.0/repositories/acme/nope', jsonReply(payload('bitbucket/not-found.json'), 404));
    mock.on('POST', '/2.0/repositories/acme/checkout-service/pullrequests', jsonReply(payload('bitbucket/forbidden.json'), 403));
    mock.on('GET', '/2.0/user', jsonReply('{"type":"error","error":{"message":"Bad credentials"}}', 401));
    const notFound = await callTool(session.client, 'bb_get', { path: '/repositories/acme/nope' });
    expect(notFound.isError).to.equal(true);
    expect(notFound.text).to.contain('HTTP Status: 404');
    expect(notFound.text).to.contain('"message": "Repository acme/nope not found"');
    const forbidden = await callTool(session.client, 'bb_post', { path: '/repositories/acme/checkout-service/pullrequests', body: { title: 'x' } });
    expect(forbidden.text).to.contain('HTTP Status: 403');
    expect(forbidden.text).to.contain('pullrequest:write');
    const unauthorized = await callTool(session.client, 'bb_get', { path: '/user' });
    expect(unauthorized.text).to.contain('ATLASSIAN_BITBUCKET_USERNAME and ATLASSIAN_BITBUCKET_APP_PASSWORD');
    expect(unauthorized.text).not.to.contain(APP_PASSWORD.ATLASSIAN_BITBUCKET_APP_PASSWORD);
  });
});
