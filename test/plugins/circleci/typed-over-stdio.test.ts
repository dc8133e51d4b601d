import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { circleciFixture, pipelines } from '../../fixtures/circleci/circleci-api.js';
import { policyDeployment, type PolicyDeployment } from '../../support/policy-deployment.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';

const TOKEN = 'CCIPAT_stdioTyped_0123456789abcdef';
const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const WORKFLOW = 'fda08377-fe7e-46b1-8992-3a7aaecac9c3';

const POLICY = `version: 1
rules:
  - id: no-production-deploys-from-agents
    effect: deny
    reason: Production deploys are started by people.
    match: { tools: [circleci_trigger_pipeline], args: { parameters.deploy_prod: true } }
  - id: reruns-are-reviewed
    effect: approval_required
    reason: A rerun spends credits; someone looks first.
    match: { vendors: [circleci], methods: [POST], paths: ["/api/v2/workflow/*/rerun"] }
  - id: triggers-allowed
    effect: allow
    match: { tools: [circleci_trigger_pipeline] }
  - id: everyone-reads
    effect: allow
    match: { readOnly: true }
`;

type Decision = { effect: string; ruleId: string | null; approvalId?: string };

// The wire path: the official SDK client spawns dist/cli.js (npm run build), with a policy file and a SQLite store.
describe('CircleCI typed tools over stdio, under a policy', function () {
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
      CIRCLECI_TOKEN: TOKEN,
      CIRCLECI_BASE_URL: mock.url,
      MCP_STRUCTURED_OUTPUT: 'true',
      LOG_LEVEL: 'debug',
      MCP_FENCE: 'false',
    };
    session = await connectStdio({ cwd: deployment.dir, env: serverEnv });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
    await deployment?.close();
  });
  beforeEach(() => mock.reset());

  it('gives the status of a branch in one call, each request decided by the policy', async () => {
    const latest = pipelines(1)[0]!;
    mock.on('GET', `/api/v2/project/${SLUG}/pipeline`, { body: { items: [latest], next_page_token: null } });
    mock.on('GET', `/api/v2/pipeline/${latest.id}/workflow`, { body: circleciFixture('workflow-list.json') });
    mock.on('GET', '/api/v2/workflow/:id/job', { body: circleciFixture('workflow-jobs.json') });
    const result = await call('circleci_pipeline_status', { projectSlug: SLUG, branch: 'main', jq: 'workflows[*].[name, status]' });
    expect(result.structuredContent).to.deep.equal({
      data: [
        ['build-and-test', 'failed'],
        ['docs', 'success'],
      ],
    });
    expect(mock.requests).to.have.length(4);
  });

  it('denies a production deploy by policy, sending nothing, and triggers another pipeline', async () => {
    mock.on('POST', `/api/v2/project/${SLUG}/pipeline`, { status: 201, body: circleciFixture('pipeline-created.json') });
    const denied = await call('circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main', parameters: { deploy_prod: true } });
    expect(denied._meta).to.deep.include({ code: 'policy_denied' });
    expect(denied._meta?.decision as Decision).to.include({ effect: 'deny', ruleId: 'no-production-deploys-from-agents' });
    expect(mock.requests).to.have.length(0);
    const started = await call('circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main', parameters: { deploy_prod: false } });
    expect((started.structuredContent as { data: unknown }).data).to.deep.include({ number: 26, state: 'pending' });
    expect(mock.requests).to.have.length(1);
  });

  it('holds a rerun for approval; once granted (CLI, through an HTTP server on the shared store) it is sent once', async () => {
    mock.on('POST', `/api/v2/workflow/${WORKFLOW}/rerun`, { status: 202, body: circleciFixture('workflow-rerun.json') });
    const held = await call('circleci_rerun_workflow', { workflowId: WORKFLOW });
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    const decision = held._meta?.decision as Decision;
    expect(decision).to.include({ effect: 'approval_required', ruleId: 'reruns-are-reviewed' });
    expect(textOf(held)).to.contain('A rerun spends credits; someone looks first.');
    expect(mock.requests).to.have.length(0);
    const grant = await deployment.grant(decision.approvalId!, 'olga', serverEnv);
    expect(grant.code, grant.stderr).to.equal(0);
    const rerun = await call('circleci_rerun_workflow', { workflowId: WORKFLOW });
    expect(rerun.structuredContent).to.deep.equal({ data: { workflowId: '0e53027b-521a-4c40-9042-47e72b3c63a3', rerunOf: WORKFLOW, fromFailed: true } });
    expect(mock.requests.map((r) => [r.method, JSON.parse(r.body)])).to.deep.equal([['POST', { from_failed: true }]]);
    expect(session.stderr.join('\n')).not.to.contain(TOKEN);
  });
});
