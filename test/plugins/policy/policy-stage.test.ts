import { writeFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { UnknownToolError } from '../../../core/kernel/kernel.js';
import { docsPolicyExample, eventually, PEOPLE, startEnterpriseKernel, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { textOf } from '../../support/test-kernel.js';

const JIRA_IDENTITY = (ent: EnterpriseKernel) => ({ vendor: 'jira', credential: 'jira-bot', host: new URL(ent.jira.url).host, environment: 'production' });
const NEW_ISSUE = { path: '/rest/api/3/issue', body: { fields: { project: { key: 'PLAT' }, summary: 'Flaky deploy step' } } };

describe('policy stage (in-process kernel, fixture Jira and CircleCI on loopback mocks)', () => {
  let ent: EnterpriseKernel;

  before(async () => {
    ent = await startEnterpriseKernel();
  });
  after(() => ent.close());
  beforeEach(() => {
    ent.jira.reset();
    ent.circleci.reset();
  });

  it('returns a refusal as an error result that says what was refused and why, and sends nothing upstream', async () => {
    const result = await ent.kernel.call('jira_post', NEW_ISSUE, PEOPLE.carol);
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.match(
      /^Error: The policy refused jira_post \(POST \/rest\/api\/3\/issue\) for carol: Contractors have read-only access\. \(rule contractors-read-only; policy sha256:[0-9a-f]{16}\)\nCode: policy_denied$/,
    );
    expect(result._meta).to.deep.equal({
      'mcp-devtools/upstream': JIRA_IDENTITY(ent),
      code: 'policy_denied',
      decision: {
        effect: 'deny',
        ruleId: 'contractors-read-only',
        reason: 'Contractors have read-only access.',
        policyVersion: (result._meta!.decision as { policyVersion: string }).policyVersion,
      },
    });
    expect(ent.jira.requests).to.have.length(0);
  });

  it('denies by default what no rule allows, with ruleId null', async () => {
    const result = await ent.kernel.call('jira_post', { path: '/rest/api/3/project', body: { key: 'NEW' } }, PEOPLE.alice);
    expect(result._meta).to.deep.include({ code: 'policy_denied' });
    expect(result._meta!.decision).to.include({ effect: 'deny', ruleId: null, reason: 'No rule of the policy allows jira_post for alice.' });
    expect(ent.jira.requests).to.have.length(0);
  });

  it('decides on argument values: nobody writes to the security project', async () => {
    const result = await ent.kernel.call('jira_post', { ...NEW_ISSUE, body: { fields: { project: { key: 'SEC' } } } }, PEOPLE.alice);
    expect(result._meta!.decision).to.include({ ruleId: 'no-agent-issues-in-the-security-project' });
    expect(ent.jira.requests).to.have.length(0);
  });

  it('runs an allowed call, naming the upstream identity that acted and nothing secret', async () => {
    ent.jira.on('POST', '/rest/api/3/issue', { status: 201, body: { id: '10042', key: 'PLAT-42' } });
    const result = await ent.kernel.call('jira_post', NEW_ISSUE, PEOPLE.alice);
    expect(result.isError).to.equal(undefined);
    expect(textOf(result)).to.equal('id: "10042"\nkey: PLAT-42');
    expect(result._meta).to.deep.equal({ 'mcp-devtools/upstream': JIRA_IDENTITY(ent) });
    const fingerprint = ent.kernel.kernel.definitions().find((t) => t.spec.name === 'jira_post')!.upstream!.identity.fingerprint;
    expect(JSON.stringify(result)).not.to.contain(fingerprint).and.not.to.contain('jira-canary-secret-7f3a');
    expect(ent.jira.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['POST /rest/api/3/issue']);
  });

  it('names the upstream identity on validation errors and upstream errors too', async () => {
    const invalid = await ent.kernel.call('jira_get', {}, PEOPLE.alice);
    expect(textOf(invalid)).to.contain('Code: invalid_arguments');
    expect(invalid._meta).to.deep.equal({ 'mcp-devtools/upstream': JIRA_IDENTITY(ent) });
    ent.jira.on('GET', '/rest/api/3/issue/PLAT-404', {
      status: 404,
      body: { errorMessages: ['Issue does not exist or you do not have permission to see it.'] },
    });
    const missing = await ent.kernel.call('jira_get', { path: '/rest/api/3/issue/PLAT-404' }, PEOPLE.alice);
    expect(textOf(missing)).to.contain('HTTP Status: 404');
    expect(missing._meta).to.deep.equal({ 'mcp-devtools/upstream': JIRA_IDENTITY(ent) });
  });

  it('keeps the production CircleCI credential for release engineers, reads included', async () => {
    ent.circleci.on('GET', '/api/v2/pipeline', { body: { items: [], next_page_token: null } });
    const denied = await ent.kernel.call('circleci_get', { path: '/api/v2/pipeline' }, PEOPLE.alice);
    expect(denied._meta!.decision).to.include({ effect: 'deny', ruleId: 'production-circleci-release-engineers-only' });
    expect(denied._meta!['mcp-devtools/upstream']).to.deep.equal({
      vendor: 'circleci',
      credential: 'circleci-deployer',
      host: new URL(ent.circleci.url).host,
      environment: 'production',
    });
    expect(ent.circleci.requests).to.have.length(0);
    const allowed = await ent.kernel.call('circleci_get', { path: '/api/v2/pipeline' }, PEOPLE.rene);
    expect(allowed.isError).to.equal(undefined);
    expect(ent.circleci.requests).to.have.length(1);
  });

  it('hides every tool that is not read-only under MCP_READ_ONLY, with a policy and without one', async () => {
    for (const policy of [undefined, null]) {
      const readOnly = await startEnterpriseKernel({ policy, env: { MCP_READ_ONLY: 'true' } });
      try {
        expect(
          readOnly.kernel.kernel
            .listTools()
            .map((t) => t.name)
            .sort(),
        ).to.deep.equal(['artifact_read', 'circleci_get', 'jira_get']);
        const thrown = await readOnly.kernel.call('jira_delete', { path: '/rest/api/3/issue/PLAT-1' }, PEOPLE.rene).catch((e: unknown) => e);
        expect(thrown).to.be.instanceOf(UnknownToolError);
        expect(readOnly.jira.requests).to.have.length(0);
      } finally {
        await readOnly.close();
      }
    }
    expect(ent.kernel.kernel.listTools()).to.have.length(7);
  });
});

describe('policy stage: wire format', () => {
  const strip = (result: CallToolResult): unknown =>
    JSON.parse(
      JSON.stringify(result)
        .replace(/127\.0\.0\.1:\d+/g, 'HOST')
        .replace(/apr-[0-9a-f]{24}/g, 'ID')
        .replace(/"expiresAt":"[^"]+"/g, '"expiresAt":"T"'),
    );

  it('carries the same _meta with MCP_STRUCTURED_OUTPUT on and off', async () => {
    const metas: unknown[] = [];
    for (const flag of ['true', 'false']) {
      const ent = await startEnterpriseKernel({ env: { MCP_STRUCTURED_OUTPUT: flag } });
      try {
        ent.jira.on('GET', '/rest/api/3/myself', { body: { accountId: '5b10a2844c20165700ede21g' } });
        const results = [
          await ent.kernel.call('jira_get', { path: '/rest/api/3/myself' }, PEOPLE.alice),
          await ent.kernel.call('jira_post', NEW_ISSUE, PEOPLE.carol),
          await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/PLAT-1' }, PEOPLE.alice),
          await ent.kernel.call('jira_get', { path: 7 }, PEOPLE.alice),
        ];
        metas.push(results.map((r) => strip({ content: [], _meta: r._meta })));
      } finally {
        await ent.close();
      }
    }
    expect(metas[0]).to.deep.equal(metas[1]);
    expect((metas[0] as Array<{ _meta: object }>).every((r) => 'mcp-devtools/upstream' in r._meta)).to.equal(true);
  });

  it('changes nothing without a policy: every result is identical to one from a server without the policy plugin', async () => {
    const results: unknown[] = [];
    for (const config of [{}, { disable: ['policy'] }]) {
      const ent = await startEnterpriseKernel({ policy: null, config });
      try {
        ent.jira.on('POST', '/rest/api/3/issue', { status: 201, body: { id: '10042', key: 'PLAT-42' } });
        ent.jira.on('DELETE', '/rest/api/3/issue/PLAT-1', { status: 204 });
        results.push([
          await ent.kernel.call('jira_post', NEW_ISSUE, PEOPLE.carol),
          await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/PLAT-1' }, PEOPLE.carol),
          await ent.kernel.call('jira_get', {}, PEOPLE.carol),
        ]);
        expect(ent.jira.requests.map((r) => r.method)).to.deep.equal(['POST', 'DELETE']);
      } finally {
        await ent.close();
      }
    }
    expect(results[0]).to.deep.equal(results[1]);
    expect(JSON.stringify(results[0])).not.to.contain('_meta');
  });
});

describe('policy file: start-up and reload', () => {
  it('refuses to start on an invalid policy, naming the file and the line', async () => {
    const broken = docsPolicyExample().replace('effect: approval_required', 'effect: approve');
    const error = (await startEnterpriseKernel({ policy: broken }).catch((e: unknown) => e)) as Error;
    expect(error).to.be.instanceOf(Error);
    const line = broken.split('\n').findIndex((l) => l.includes('effect: approve')) + 1;
    const rule = (broken.slice(0, broken.indexOf('effect: approve')).match(/^ {2}- id:/gm) ?? []).length - 1;
    expect(error.message).to.match(
      /^MCP_POLICY_FILE is invalid:\n\/.*policy\.yaml line (\d+): rules\[(\d+)\]\.effect: must be one of "allow", "deny", "approval_required", "confirm" \(got "approve"\)$/,
    );
    expect(error.message).to.contain(`policy.yaml line ${line}: rules[${rule}].effect`);
  });

  it('follows edits of the file; an invalid edit is logged and the last good policy stays in force', async () => {
    const ent = await startEnterpriseKernel({ policy: 'version: 1\nrules:\n  - { id: nothing-yet, effect: deny }\n' });
    try {
      ent.jira.on('GET', '/rest/api/3/myself', { body: { accountId: 'x' } });
      const read = () => ent.kernel.call('jira_get', { path: '/rest/api/3/myself' }, PEOPLE.alice);
      expect((await read())._meta!.decision).to.include({ ruleId: 'nothing-yet' });
      writeFileSync(ent.policyPath!, docsPolicyExample());
      await eventually('the edited policy is in force', async () => (await read()).isError !== true);
      expect(ent.kernel.logs.some((l) => l.includes('"msg":"policy reloaded"'))).to.equal(true);

      writeFileSync(ent.policyPath!, 'version: 1\nrules:\n  - id: broken\n    effect: sometimes\n');
      await eventually('the invalid edit is logged', () => ent.kernel.logs.some((l) => l.includes('policy file changed but is invalid')));
      const logged = JSON.parse(ent.kernel.logs.find((l) => l.includes('policy file changed but is invalid'))!) as { problems: string; level: number };
      expect(logged.problems).to.contain('policy.yaml line 4: rules[0].effect: must be one of');
      expect(logged.level).to.equal(50);
      expect((await read()).isError).to.equal(undefined);
    } finally {
      await ent.close();
    }
  });
});
