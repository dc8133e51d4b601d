import { expect } from 'chai';
import { bitbucketError, bitbucketJson, bitbucketPage, bitbucketText, pullRequest, pullRequests } from '../../fixtures/bitbucket/bitbucket-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { basicHeader } from '../atlassian/atlassian-calls.js';

const ACCOUNT = { ATLASSIAN_USER_EMAIL: 'mia.krystof@acme.example', ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-typed-pr-token-41c9' };
const REPO = { workspace: 'acme', repoSlug: 'checkout-service' };
const PRS = '/2.0/repositories/acme/checkout-service/pullrequests';
/** The pages asked for, without the repository read for its is_private (the labels' confidentiality). */
const withoutRepositoryLookup = <R extends { path: string }>(requests: readonly R[]): R[] =>
  requests.filter((r) => r.path !== '/2.0/repositories/acme/checkout-service');

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('bb_list_pull_requests (in-process, Bitbucket-shaped mock)', () => {
  for (const structured of [true, false]) {
    describe(`with MCP_STRUCTURED_OUTPUT=${structured}`, () => {
      const t = useVendorKernel({
        plugins: ['bitbucket'],
        env: (url) => ({ ...ACCOUNT, BITBUCKET_BASE_URL: url, MCP_FENCE: 'false', MCP_STRUCTURED_OUTPUT: String(structured) }),
      });

      it('sends state and pages with an opaque cursor taken from the next URL, never the URL itself', async () => {
        const all = pullRequests(25);
        t.mock.on('GET', PRS, (req) => bitbucketPage(req, all));
        const first = await t.kernel.call('bb_list_pull_requests', { ...REPO, state: 'MERGED', jq: 'values[*].id', outputFormat: 'json' });
        const page1 = JSON.parse(textOf(first)) as { data: number[]; nextCursor: string };
        expect(page1.data).to.deep.equal(all.slice(0, 10).map((p) => p.id));
        expect(page1.nextCursor).to.be.a('string').and.not.contain('bitbucket');
        expect(first.structuredContent).to.deep.equal(structured ? page1 : undefined);
        const second = JSON.parse(
          textOf(
            await t.kernel.call('bb_list_pull_requests', { ...REPO, state: 'MERGED', cursor: page1.nextCursor, jq: 'values[*].id', outputFormat: 'json' }),
          ),
        );
        const third = JSON.parse(
          textOf(
            await t.kernel.call('bb_list_pull_requests', { ...REPO, state: 'MERGED', cursor: second.nextCursor, jq: 'values[*].id', outputFormat: 'json' }),
          ),
        );
        expect([...page1.data, ...second.data, ...third.data]).to.deep.equal(all.map((p) => p.id));
        expect(third.nextCursor).to.equal(null);
        expect(withoutRepositoryLookup(t.mock.requests).map((r) => r.url)).to.deep.equal([
          `${PRS}?state=MERGED`,
          `${PRS}?state=MERGED&page=2`,
          `${PRS}?state=MERGED&page=3`,
        ]);
        expect(t.mock.requests[0]!.headers.authorization).to.equal(basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN));
      });

      it('renders the page in TOON by default, with nextCursor beside the data', async () => {
        t.mock.on('GET', PRS, (req) => bitbucketPage(req, pullRequests(2)));
        const text = textOf(await t.kernel.call('bb_list_pull_requests', { ...REPO, jq: 'values[*].{id: id, title: title}' }));
        expect(text).to.equal('nextCursor: null\ndata[2]{id,title}:\n  412,Change 412\n  411,Change 411');
      });
    });
  }

  describe('cursors', () => {
    const t = useVendorKernel({ plugins: ['bitbucket'], env: (url) => ({ ...ACCOUNT, BITBUCKET_BASE_URL: url, MCP_FENCE: 'false' }) });

    it('keeps only the page of a next URL that points at another host and path', async () => {
      t.mock.on('GET', PRS, (req) => bitbucketPage(req, pullRequests(15), 'https://evil.example/steal'));
      const first = JSON.parse(textOf(await t.kernel.call('bb_list_pull_requests', { ...REPO, jq: 'values[0].id', outputFormat: 'json' })));
      await t.kernel.call('bb_list_pull_requests', { ...REPO, cursor: first.nextCursor, jq: 'values[0].id' });
      expect(withoutRepositoryLookup(t.mock.requests).map((r) => r.url)).to.deep.equal([PRS, `${PRS}?page=2`]);
    });

    for (const [what, cursor] of [
      ['a URL', 'https://evil.example/2.0/repositories/acme/checkout-service/pullrequests?page=2'],
      ['a path', '../../user'],
      ['another query parameter', '2&q=state="OPEN"'],
      ['nothing', ''],
    ]) {
      it(`refuses a cursor that is ${what}, without any request`, async () => {
        const result = await t.kernel.call('bb_list_pull_requests', { ...REPO, cursor });
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.contain('Code: invalid_arguments');
        expect(textOf(result)).to.contain('cursor');
        expect(t.mock.requests).to.have.length(0);
      });
    }
  });
});

describe('bb_get_pull_request_diff and bb_add_pull_request_comment (in-process)', () => {
  const t = useVendorKernel({
    plugins: ['bitbucket'],
    env: (url) => ({ ...ACCOUNT, BITBUCKET_BASE_URL: url, MCP_FENCE: 'false', MCP_STRUCTURED_OUTPUT: 'true' }),
  });
  const PR = `${PRS}/412`;

  it('reads the pull request, then the diff between its commits, with a summary line', async () => {
    const diff = bitbucketText('atlassian/bitbucket/pr-diff.txt');
    t.mock.on('GET', PR, { body: pullRequest() });
    t.mock.on('GET', '/2.0/repositories/acme/checkout-service/diff/:spec', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: diff });
    const result = await t.kernel.call('bb_get_pull_request_diff', { ...REPO, pullRequestId: 412 });
    expect(textOf(result)).to.equal(
      `Diff of pull request #412 "Raise client_max_body_size to 4m for /checkout" (fix/plat-1421-body-size into main) of acme/checkout-service: 2 files changed, +10 -1.\n---\n${diff.replace(/\n$/, '')}`,
    );
    expect(t.mock.requests.map((r) => [r.path, r.params.spec, r.query.get('topic')])).to.deep.equal([
      [PR, undefined, null],
      ['/2.0/repositories/acme/checkout-service/diff/1a2b3c4d5e6f..9f8e7d6c5b4a', '1a2b3c4d5e6f..9f8e7d6c5b4a', 'true'],
    ]);
    expect(result.structuredContent).to.equal(undefined);
  });

  it('names the fork in the diff spec of a pull request from a fork', async () => {
    const fork = pullRequest() as ReturnType<typeof pullRequest> & { source: { repository: { full_name: string } } };
    fork.source.repository.full_name = 'mia-k/checkout-service';
    t.mock.on('GET', PR, { body: fork });
    t.mock.on('GET', '/2.0/repositories/acme/checkout-service/diff/*', { headers: { 'content-type': 'text/plain' }, body: '' });
    expect(textOf(await t.kernel.call('bb_get_pull_request_diff', { ...REPO, pullRequestId: 412 }))).to.match(/: it changes nothing\.$/);
    expect(t.mock.requests[1]!.path).to.equal('/2.0/repositories/acme/checkout-service/diff/mia-k/checkout-service:1a2b3c4d5e6f..9f8e7d6c5b4a');
  });

  it('cuts a long diff and saves the whole of it as an artifact', async () => {
    const file = (i: number): string =>
      `diff --git a/src/f${i}.ts b/src/f${i}.ts\n--- a/src/f${i}.ts\n+++ b/src/f${i}.ts\n@@ -1 +1 @@\n-old ${i}\n+${'new '.repeat(40)}${i}\n`;
    const diff = Array.from({ length: 300 }, (_, i) => file(i)).join('');
    t.mock.on('GET', PR, { body: pullRequest() });
    t.mock.on('GET', '/2.0/repositories/acme/checkout-service/diff/:spec', { headers: { 'content-type': 'text/plain' }, body: diff });
    const text = textOf(await t.kernel.call('bb_get_pull_request_diff', { ...REPO, pullRequestId: 412 }));
    const id = /is artifact ([0-9a-f]{32})/.exec(text)?.[1];
    expect(text.split('\n').slice(0, 2).join('\n')).to.match(
      /^Diff of pull request #412 .*: 300 files changed, \+300 -300\.\nShown: the first \d+ of 1800 lines/,
    );
    const read = await t.kernel.call('artifact_read', { artifactId: id, encoding: 'utf8' });
    expect(JSON.parse(textOf(read))).to.include({ mimeType: 'text/x-diff', bytes: Buffer.byteLength(diff) });
  });

  it("reports a missing pull request with Bitbucket's message, and reads no diff", async () => {
    t.mock.on('GET', `${PRS}/9999`, bitbucketError(404, 'Pull request 9999 not found'));
    const result = await t.kernel.call('bb_get_pull_request_diff', { ...REPO, pullRequestId: 9999 });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 404');
    expect(textOf(result)).to.contain('Pull request 9999 not found');
    expect(t.mock.requests).to.have.length(1);
  });

  it('posts a Markdown comment and answers with what was made', async () => {
    t.mock.on('POST', `${PR}/comments`, { status: 201, body: bitbucketJson('atlassian/bitbucket/created-comment.json') });
    const result = await t.kernel.call('bb_add_pull_request_comment', { ...REPO, pullRequestId: 412, body: 'LGTM 👍' });
    expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ content: { raw: 'LGTM 👍' } });
    expect(t.mock.requests[0]!.headers['content-type']).to.equal('application/json');
    const made = { id: 556021334, url: null, pullRequestId: 412, inline: null, createdOn: '2025-03-06T10:11:12.131415+00:00' };
    expect(result.structuredContent).to.deep.equal({ data: made });
    expect(textOf(result)).to.equal('id: 556021334\nurl: null\npullRequestId: 412\ninline: null\ncreatedOn: "2025-03-06T10:11:12.131415+00:00"');
  });

  it('anchors a comment to a file and line when path and line are given', async () => {
    t.mock.on('POST', `${PR}/comments`, { status: 201, body: bitbucketJson('inline-comment-created.json') });
    const args = { ...REPO, pullRequestId: 412, body: "Should this follow the ingress chart's limit?", path: 'deploy/gateway/nginx.conf', line: 7 };
    const result = await t.kernel.call('bb_add_pull_request_comment', args);
    expect(JSON.parse(t.mock.requests[0]!.body)).to.deep.equal({ content: { raw: args.body }, inline: { path: 'deploy/gateway/nginx.conf', to: 7 } });
    expect((result.structuredContent as { data: unknown }).data).to.deep.include({
      id: 556021390,
      url: 'https://bitbucket.org/acme/checkout-service/pull-requests/412/_/diff#comment-556021390',
      inline: { from: null, to: 7, path: 'deploy/gateway/nginx.conf' },
    });
  });

  it('refuses a line without a path before any request, as its schema says', async () => {
    const result = await t.kernel.call('bb_add_pull_request_comment', { ...REPO, pullRequestId: 412, body: 'x', line: 3 });
    expect(textOf(result)).to.contain('Code: invalid_arguments');
    expect(textOf(result)).to.match(/path/);
    expect(t.mock.requests).to.have.length(0);
    const schema = t.kernel.kernel.listTools().find((tool) => tool.name === 'bb_add_pull_request_comment')!.inputSchema;
    expect(schema).to.deep.include({ dependentRequired: { line: ['path'] } });
  });

  it('refuses arguments that could change the path, before any request', async () => {
    for (const args of [
      { ...REPO, workspace: '../admin', pullRequestId: 412, body: 'x' },
      { ...REPO, repoSlug: 'checkout-service/pullrequests/1', pullRequestId: 412, body: 'x' },
      { ...REPO, pullRequestId: '412/decline', body: 'x' },
    ]) {
      expect(textOf(await t.kernel.call('bb_add_pull_request_comment', args))).to.contain('Code: invalid_arguments');
    }
    expect(t.mock.requests).to.have.length(0);
  });

  it('says which credential lacks the scope on a 403, and on a 401', async () => {
    t.mock.on('POST', `${PR}/comments`, {
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: bitbucketText('atlassian/bitbucket/forbidden.json'),
    });
    const forbidden = textOf(await t.kernel.call('bb_add_pull_request_comment', { ...REPO, pullRequestId: 412, body: 'x' }));
    expect(forbidden).to.contain('HTTP Status: 403');
    expect(forbidden).to.contain('pullrequest:write');
    t.mock.on('POST', `${PR}/comments`, bitbucketError(401, 'Invalid credentials'));
    const unauthorized = textOf(await t.kernel.call('bb_add_pull_request_comment', { ...REPO, pullRequestId: 412, body: 'x' }));
    expect(unauthorized).to.contain('HTTP Status: 401');
    expect(unauthorized).not.to.contain(ACCOUNT.ATLASSIAN_API_TOKEN);
  });
});
