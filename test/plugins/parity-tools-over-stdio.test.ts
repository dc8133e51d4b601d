import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { serveAttachment, TINY_IMAGES } from '../fixtures/atlassian/jira-attachments.js';
import { FAILED_TEST_OUTPUT, serveJobLogs } from '../fixtures/circleci/circleci-v1.js';
import { githubFixture, pagedArrayReply } from '../fixtures/github/github-api.js';
import { fileEntry, issuesWithPullRequests, pullRequestDiff, pullRequests, repositories } from '../fixtures/github/github-repo-api.js';
import { BitbucketDownloads } from '../support/bitbucket-downloads.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';
import { ACCOUNT } from './atlassian/atlassian-calls.js';

/** The tools this round added, and whether each advertises an output schema. */
const SCHEMA_TOOLS = [
  'github_list_pull_requests',
  'github_list_issues',
  'github_list_repositories',
  'github_get_pull_request',
  'github_get_issue',
  'bb_upload',
];
const TEXT_TOOLS = ['github_get_pull_request_diff', 'github_get_file', 'circleci_logs', 'circleci_put', 'circleci_patch', 'jira_get_attachment'];
const REPO = { owner: 'octo-org', repo: 'octo-repo' };

const textOf = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

// The wire path: the official SDK client spawns dist/cli.js (npm run build) with every vendor pointed at
// wire-format mocks, once with structured output off and once on. Texts must not depend on the flag.
for (const structured of [false, true]) {
  describe(`the new vendor tools over stdio, structured output ${structured ? 'on' : 'off'}`, function () {
    this.timeout(60_000);
    let github: MockUpstream;
    let circleci: MockUpstream;
    let storage: MockUpstream;
    let jira: MockUpstream;
    let media: MockUpstream;
    let bitbucket: BitbucketDownloads;
    let session: StdioSession;

    before(async () => {
      [github, circleci, storage, jira, media] = await Promise.all([1, 2, 3, 4, 5].map(() => MockUpstream.start()));
      bitbucket = await BitbucketDownloads.start();
      session = await connectStdio({
        env: {
          GITHUB_API_URL: github.url,
          GITHUB_TOKEN: 'ghp_parityTestToken0123',
          CIRCLECI_BASE_URL: circleci.url,
          CIRCLECI_TOKEN: 'circle-parityTestToken0123',
          ...ACCOUNT,
          JIRA_BASE_URL: jira.url,
          BITBUCKET_BASE_URL: bitbucket.url,
          MCP_STRUCTURED_OUTPUT: String(structured),
          // The storage and media host mocks are on loopback: the egress guard lets them through only by name.
          MCP_EGRESS_ALLOW: [storage, media].map((m) => new URL(m.url).host).join(','),
          // github_list_repositories and github_get_file are in github.repos, which is not served by default.
          MCP_TOOLSETS: 'all',
        },
      });
      github.on('GET', '/repos/octo-org/octo-repo/pulls', (req) => pagedArrayReply(req, pullRequests(45), '/repositories/1296269/pulls'));
      github.on('GET', '/repos/octo-org/octo-repo/issues', (req) => pagedArrayReply(req, issuesWithPullRequests(9), '/repositories/1296269/issues'));
      github.on('GET', '/orgs/octo-org/repos', (req) => pagedArrayReply(req, repositories(2), '/organizations/9919/repos'));
      github.on('GET', '/repos/octo-org/octo-repo/pulls/1347', (req) =>
        req.headers.accept === 'application/vnd.github.diff'
          ? { headers: { 'content-type': 'application/vnd.github.diff' }, body: pullRequestDiff(1) }
          : { body: githubFixture('pull-request.json') },
      );
      github.on('GET', '/repos/octo-org/octo-repo/issues/1347', { body: githubFixture('issue.json') });
      github.on('GET', '/repos/octo-org/octo-repo/contents/README.md', { body: fileEntry('README.md', '# octo-repo\n') });
      serveJobLogs(circleci, storage, { 103: FAILED_TEST_OUTPUT });
      circleci.on('PUT', '/api/v2/context/c1/environment-variable/KEY', { body: { variable: 'KEY' } });
      circleci.on('PATCH', '/api/v2/schedule/s1', { status: 400, body: { message: 'Invalid timetable.' } });
      serveAttachment(jira, media, '10001', { filename: 'error.png', mimeType: 'image/png' }, TINY_IMAGES['image/png']);
      serveAttachment(jira, media, '10002', { filename: 'build.log', mimeType: 'text/plain' }, Buffer.from('log\n'));
    });
    after(async () => {
      await session?.close();
      for (const mock of [github, circleci, storage, jira, media]) await mock?.close();
      await bitbucket?.close();
    });

    const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
      (await session.client.callTool({ name, arguments: args })) as CallToolResult;

    it(`lists them${structured ? ', an output schema on those with a contract' : ', with no output schema'}`, async () => {
      const tools = new Map((await session.client.listTools()).tools.map((t) => [t.name, t]));
      for (const name of [...SCHEMA_TOOLS, ...TEXT_TOOLS]) expect(tools.has(name), name).to.equal(true);
      for (const name of SCHEMA_TOOLS) expect(tools.get(name)!.outputSchema !== undefined, name).to.equal(structured);
      for (const name of TEXT_TOOLS) expect(tools.get(name)!.outputSchema, name).to.equal(undefined);
    });

    it('pages pull requests, issues and repositories, with structured content only when on', async () => {
      const prs = await call('github_list_pull_requests', { ...REPO, perPage: 2, jq: '[*].number', outputFormat: 'json' });
      expect(JSON.parse(textOf(prs))).to.deep.equal({ data: [1392, 1391], nextPage: 2 });
      const issues = await call('github_list_issues', { ...REPO, jq: '[*].title', outputFormat: 'json' });
      expect((JSON.parse(textOf(issues)) as { data: string[] }).data).to.have.length(6);
      const repos = await call('github_list_repositories', { owner: 'octo-org', jq: '[*].name' });
      // Descriptions are people's text (untrusted, fenced); the names the projection keeps are not.
      expect(textOf(repos)).to.match(/^provenance:\n {2}fence: <\d+>…<\/\d+>\n {2}untrusted: 2\n {2}private: 0\nnextPage: null\ndata\[2\]: repo-1,repo-2$/);
      for (const r of [prs, issues, repos]) expect(r.structuredContent !== undefined).to.equal(structured);
    });

    it('reads a pull request, an issue, a diff and a file', async () => {
      const pr = await call('github_get_pull_request', { ...REPO, pullNumber: 1347, jq: 'title' });
      expect(textOf(pr)).to.equal('Amazing new feature');
      expect(pr.structuredContent).to.deep.equal(structured ? { data: 'Amazing new feature' } : undefined);
      expect(textOf(await call('github_get_issue', { ...REPO, issueNumber: 1347, jq: 'state' }))).to.equal('open');
      // A diff is people's text: it comes fenced, the fence named once in a header line.
      const diff = textOf(await call('github_get_pull_request_diff', { ...REPO, pullNumber: 1347 }));
      const fenced = /^Untrusted text is fenced: <(\d+)>…<\/\1>\n<\1>([\s\S]*)<\/\1>$/.exec(diff);
      expect(fenced, diff.slice(0, 200)).to.not.equal(null);
      expect(fenced![2]).to.equal(`Diff of pull request #1347 of octo-org/octo-repo: 1 file changed, +4 -3.\n---\n${pullRequestDiff(1).trimEnd()}`);
      const file = await call('github_get_file', { ...REPO, path: 'README.md' });
      expect(textOf(file)).to.match(/^File README\.md of octo-org\/octo-repo at the default branch \(12 bytes, sha [0-9a-f]{12}\):\n---\n# octo-repo\n$/);
      expect(file.structuredContent).to.equal(undefined);
    });

    it("reads a CircleCI job's failed step, and its whole output back as text with artifact_read", async () => {
      const logs = await call('circleci_logs', { projectSlug: 'gh/CircleCI-Public/api-preview-docs', jobNumber: 1262, tailLines: 2 });
      // A build's output is untrusted (whether a fork's is not looked up): fenced whole.
      expect(textOf(logs)).to.match(/^Untrusted text is fenced: <(\d+)>…<\/\1>\n<\1>[\s\S]*---\n\nExited with code exit status 1<\/\1>$/);
      const artifactId = /artifact ([0-9a-f]{32})/.exec(textOf(logs))![1]!;
      const chunk = JSON.parse(textOf(await call('artifact_read', { artifactId, encoding: 'utf8' }))) as { data: string; eof: boolean; mimeType: string };
      expect([chunk.eof, chunk.mimeType]).to.deep.equal([true, 'text/plain']);
      expect(chunk.data.split('\n').filter((l) => l.startsWith('waiting for search service'))).to.have.length(40);
      expect(storage.requests.every((r) => r.headers['circle-token'] === undefined)).to.equal(true);
    });

    it('sends circleci_put, and reports a refused circleci_patch', async () => {
      expect(textOf(await call('circleci_put', { path: '/context/c1/environment-variable/KEY', body: { value: 'v' } }))).to.equal('variable: KEY');
      const refused = await call('circleci_patch', { path: '/schedule/s1', body: { timetable: {} } });
      expect(refused.isError).to.equal(true);
      expect(textOf(refused)).to.contain('HTTP Status: 400');
    });

    it('shows a Jira image as an image block, and refuses a log with the tool to use', async () => {
      const image = await call('jira_get_attachment', { attachmentId: '10001' });
      expect(image.content[1]).to.deep.equal({ type: 'image', mimeType: 'image/png', data: TINY_IMAGES['image/png'].toString('base64') });
      const refused = await call('jira_get_attachment', { attachmentId: '10002' });
      expect([refused.isError, textOf(refused)]).to.deep.equal([
        true,
        'Error: Attachment 10002 ("build.log", text/plain, 4 bytes) is not an image; this tool returns PNG, JPEG, GIF and WebP images up to 5 MiB. Read its metadata with jira_get on "/rest/api/3/attachment/10002".\nCode: unsupported_content',
      ]);
    });

    it('uploads to Bitbucket Downloads, then refuses the same name without replace', async () => {
      const args = {
        workspace: 'acme',
        repoSlug: 'checkout-service',
        files: [{ name: 'report.txt', content: Buffer.from('ok\n').toString('base64'), mimeType: 'text/plain' }],
      };
      const done = await call('bb_upload', args);
      expect(textOf(done)).to.contain('files[1]{name,size,mimeType,replaced,downloadUrl}:\n  report.txt,3,text/plain,false,');
      expect(done.structuredContent !== undefined).to.equal(structured);
      const refused = await call('bb_upload', args);
      expect(textOf(refused)).to.contain('Code: upload_refused');
      expect(refused.structuredContent).to.equal(undefined);
    });

    it("refuses a file path that climbs out of the repository, and reports GitHub's 404", async () => {
      expect(textOf(await call('github_get_file', { ...REPO, path: '..%2f..%2fother/secret' }))).to.contain('Code: invalid_path');
      const missing = await call('github_get_pull_request', { ...REPO, pullNumber: 9 });
      expect([missing.isError, missing.structuredContent]).to.deep.equal([true, undefined]);
      expect(session.stderr.join('\n')).not.to.contain('ghp_parityTestToken0123');
    });
  });
}
