import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { bitbucketJson, bitbucketPage, pullRequests } from '../../fixtures/bitbucket/bitbucket-api.js';
import { policyDeployment, type PolicyDeployment } from '../../support/policy-deployment.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';

const TOKEN = 'ATCTT3xFfGN0-stdio-access-token-90ab';
const REPO = { workspace: 'acme', repoSlug: 'checkout-service' };
const API = '/2.0/repositories/acme/checkout-service';

const POLICY = `version: 1
rules:
  - id: main-runs-from-the-release-train
    effect: deny
    reason: Pipelines on main are started by the release train, not by agents.
    match: { tools: [bb_run_pipeline], args: { branch: main } }
  - id: comments-are-reviewed
    effect: approval_required
    reason: Comments on pull requests are read by a human first.
    match: { vendors: [bitbucket], methods: [POST], paths: ["/2.0/repositories/*/pullrequests/*/comments"] }
  - id: pipelines-on-branches
    effect: allow
    match: { tools: [bb_run_pipeline] }
  - id: everyone-reads
    effect: allow
    match: { readOnly: true }
`;

type Decision = { effect: string; ruleId: string | null; reason?: string; approvalId?: string };

// The wire path: the official SDK client spawns dist/cli.js (npm run build), with a policy file and a SQLite store.
// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('Bitbucket typed tools over stdio, under a policy', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let session: StdioSession;
  let deployment: PolicyDeployment;
  let serverEnv: Record<string, string>;
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await session.client.callTool({ name, arguments: args })) as CallToolResult;

  before(async () => {
    mock = await MockUpstream.start();
    deployment = policyDeployment(POLICY);
    serverEnv = {
      ...deployment.env,
      BITBUCKET_ACCESS_TOKEN: TOKEN,
      BITBUCKET_BASE_URL: mock.url,
      MCP_FENCE: 'false',
      MCP_STRUCTURED_OUTPUT: 'true',
      LOG_LEVEL: 'debug',
    };
    session = await connectStdio({ cwd: deployment.dir, env: serverEnv });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
    await deployment?.close();
  });
  beforeEach(() => mock.reset());

  it('lists the typed tools with their annotations, output schemas where they return objects, and no required default', async () => {
    const tools = Object.fromEntries((await session.client.listTools()).tools.filter((t) => t.name.startsWith('bb_')).map((t) => [t.name, t]));
    const typed = [
      'bb_list_pull_requests',
      'bb_get_pull_request_diff',
      'bb_add_pull_request_comment',
      'bb_list_pipelines',
      'bb_get_pipeline_step_log',
      'bb_run_pipeline',
    ];
    expect(Object.keys(tools)).to.include.members(typed);
    for (const name of ['bb_add_pull_request_comment', 'bb_run_pipeline'])
      expect(tools[name]!.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: false });
    for (const name of ['bb_list_pull_requests', 'bb_get_pull_request_diff', 'bb_list_pipelines', 'bb_get_pipeline_step_log'])
      expect(tools[name]!.annotations).to.deep.include({ readOnlyHint: true });
    expect(Object.keys(tools.bb_list_pull_requests!.outputSchema?.properties ?? {})).to.deep.equal([
      'data',
      'nextCursor',
      'incomplete',
      'provenance',
      'allowlist',
    ]);
    expect(Object.keys(tools.bb_run_pipeline!.outputSchema?.properties ?? {})).to.deep.equal(['data', 'incomplete', 'provenance', 'allowlist']);
    expect(tools.bb_get_pipeline_step_log!.outputSchema).to.equal(undefined);
    expect(tools.bb_get_pipeline_step_log!.inputSchema.required).to.deep.equal(['workspace', 'repoSlug', 'pipelineUuid']);
    for (const tool of Object.values(tools)) {
      const required = new Set(tool.inputSchema.required ?? []);
      const defaulted = Object.entries(tool.inputSchema.properties ?? {}).filter(([, p]) => (p as { default?: unknown }).default !== undefined);
      expect(
        defaulted.filter(([k]) => required.has(k)).map(([k]) => k),
        tool.name,
      ).to.deep.equal([]);
    }
  });

  it('reads a page as {data, nextCursor} with the access token as Bearer', async () => {
    mock.on('GET', `${API}/pullrequests`, (req) => bitbucketPage(req, pullRequests(3)));
    const result = await call('bb_list_pull_requests', { ...REPO, jq: 'values[*].id' });
    expect(result.structuredContent).to.deep.equal({ data: [412, 411, 410], nextCursor: null });
    expect(mock.requests[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
  });

  it('denies a pipeline on main by policy, sending nothing, and runs one on a branch', async () => {
    mock.on('POST', `${API}/pipelines`, { status: 201, body: bitbucketJson('pipeline-created.json') });
    const denied = await call('bb_run_pipeline', { ...REPO, branch: 'main', pipeline: 'deploy-staging' });
    expect(denied.isError).to.equal(true);
    expect(denied._meta).to.deep.include({ code: 'policy_denied' });
    expect(denied._meta?.decision as Decision).to.include({ effect: 'deny', ruleId: 'main-runs-from-the-release-train' });
    expect(textOf(denied)).to.contain('Pipelines on main are started by the release train, not by agents.');
    expect(mock.requests).to.have.length(0);
    const ran = await call('bb_run_pipeline', { ...REPO, branch: 'fix/plat-1421-body-size' });
    expect(ran.isError).to.equal(undefined);
    expect((ran.structuredContent as { data: { buildNumber: number } }).data.buildNumber).to.equal(1289);
    expect(mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`POST ${API}/pipelines`]);
  });

  it('holds a comment for approval; once granted (CLI, through an HTTP server on the shared store) it is posted once', async () => {
    mock.on('POST', `${API}/pullrequests/412/comments`, { status: 201, body: bitbucketJson('inline-comment-created.json') });
    const args = { ...REPO, pullRequestId: 412, body: 'Should this follow the ingress chart?', path: 'deploy/gateway/nginx.conf', line: 7 };
    const held = await call('bb_add_pull_request_comment', args);
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    const decision = held._meta?.decision as Decision;
    expect(decision).to.include({ effect: 'approval_required', ruleId: 'comments-are-reviewed' });
    expect(mock.requests).to.have.length(0);
    const grant = await deployment.grant(decision.approvalId!, 'olga', serverEnv);
    expect(grant.code, grant.stderr).to.equal(0);
    const posted = await call('bb_add_pull_request_comment', args);
    expect(posted.isError).to.equal(undefined);
    expect((posted.structuredContent as { data: { id: number } }).data.id).to.equal(556021390);
    expect((await call('bb_add_pull_request_comment', args))._meta).to.deep.include({ code: 'approval_required' });
    expect(mock.requests.map((r) => JSON.parse(r.body))).to.deep.equal([{ content: { raw: args.body }, inline: { path: args.path, to: 7 } }]);
    expect(session.stderr.join('\n')).not.to.contain(TOKEN);
  });
});
