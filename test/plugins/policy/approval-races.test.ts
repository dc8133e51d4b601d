import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { Kernel } from '../../../core/kernel/kernel.js';
import { createArtifactStore } from '../../../plugins/artifacts/artifact-service.js';
import { createLogger } from '../../../core/logging/logger.js';
import { openStore } from '../../../core/store/open-store.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { Deciders } from '../../../plugins/policy/approvals/deciders.js';
import { bindingKey } from '../../../plugins/policy/approvals/approval-binding.js';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { resolveConfig } from '../../../server/bootstrap/resolve-config.js';
import {
  APPROVERS,
  docsPolicyExample,
  ENTERPRISE_PLUGIN_PATH,
  manualClock,
  PEOPLE,
  startEnterpriseKernel,
  vendorEnv,
  type EnterpriseKernel,
} from '../../support/enterprise-fixture.js';
import { StoreWithOutage } from '../../support/store-with-outage.js';
import { textOf } from '../../support/test-kernel.js';

const decisionOf = (result: CallToolResult): Decision => result._meta!.decision as Decision;
const DELETE = { path: '/rest/api/3/issue/PLAT-7' };

describe('approvals under pressure: racing retries, floods, __proto__ and a failing store', () => {
  let ent: EnterpriseKernel;
  let approvals: ApprovalStore;

  before(async () => {
    ent = await startEnterpriseKernel({ clock: manualClock(), env: { MCP_APPROVAL_MAX_PENDING: '3' } });
    approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
  });
  after(() => ent.close());
  beforeEach(() => {
    ent.jira.reset();
    ent.circleci.reset();
    ent.jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
    ent.circleci.on('POST', '*', { status: 201, body: { id: 'p1' } });
  });

  it('gives retries racing to be held one approval, not one each (no orphan pending approvals)', async () => {
    const path = { path: '/rest/api/3/issue/PLAT-101' };
    const results = await Promise.all(Array.from({ length: 6 }, () => ent.kernel.call('jira_delete', path, PEOPLE.alice)));
    const ids = new Set(results.map((r) => decisionOf(r).approvalId));
    expect(ids.size).to.equal(1);
    const listed = (await approvals.list()).filter((a) => a.request?.path === '/rest/api/3/issue/PLAT-101');
    expect(listed.map((a) => a.id)).to.deep.equal([...ids]);
  });

  it('runs a granted call once when three retries race for the grant', async () => {
    const path = { path: '/rest/api/3/issue/PLAT-102' };
    const { approvalId } = decisionOf(await ent.kernel.call('jira_delete', path, PEOPLE.rene));
    await approvals.grant(approvalId!, APPROVERS.olga);
    const results = await Promise.all([1, 2, 3].map(() => ent.kernel.call('jira_delete', path, PEOPLE.rene)));
    expect(results.filter((r) => r.isError !== true)).to.have.length(1);
    expect(ent.jira.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['DELETE /rest/api/3/issue/PLAT-102']);
  });

  it('keeps one caller from flooding the approvers: past MCP_APPROVAL_MAX_PENDING pending ones, calls are denied', async () => {
    const dave = { ...PEOPLE.dave, subject: 'dave-flood' };
    for (const n of [1, 2, 3])
      expect(decisionOf(await ent.kernel.call('jira_delete', { path: `/rest/api/3/issue/FLD-${n}` }, dave)).effect).to.equal('approval_required');
    const fourth = await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/FLD-4' }, dave);
    expect(decisionOf(fourth)).to.include({ effect: 'deny', ruleId: 'deletes-need-approval' });
    expect(textOf(fourth)).to.contain('dave-flood already has 3 approvals pending, the most one caller may have (MCP_APPROVAL_MAX_PENDING)');
    // A retry of a call already pending still finds its approval, and other callers are not held back.
    expect(decisionOf(await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/FLD-1' }, dave)).effect).to.equal('approval_required');
    expect(decisionOf(await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/FLD-4' }, { ...dave, subject: 'erin' })).effect).to.equal(
      'approval_required',
    );
    // Once an approver decides one, the caller may ask for another.
    const first = (await approvals.list()).find((a) => a.subject === 'dave-flood' && a.request?.path === '/rest/api/3/issue/FLD-1')!;
    await approvals.reject(first.id, APPROVERS.olga, 'Too many at once.');
    expect(decisionOf(await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/FLD-4' }, dave)).effect).to.equal('approval_required');
    expect(ent.jira.requests).to.have.length(0);
  });

  it('binds and shows a "__proto__" argument the request sends, so a grant for one value runs no other', async () => {
    const body = (value: number): Record<string, unknown> => JSON.parse(`{"branch": "main", "__proto__": {"parameters": ${value}}}`) as Record<string, unknown>;
    const call = (value: number): Promise<CallToolResult> =>
      ent.kernel.call('circleci_post', { path: '/api/v2/project/gh/acme/app/pipeline', body: body(value) }, PEOPLE.rene);
    const one = decisionOf(await call(1));
    const two = decisionOf(await call(2));
    expect(one.approvalId).not.to.equal(two.approvalId);
    const record = (await approvals.get(one.approvalId!))!;
    expect(record.arguments).to.equal('{"path":"/api/v2/project/gh/acme/app/pipeline","body":{"branch":"main","__proto__":{"parameters":1}}}');
    await approvals.grant(one.approvalId!, APPROVERS.olga);
    expect(decisionOf(await call(2)).effect).to.equal('approval_required');
    expect((await call(1)).isError).to.equal(undefined);
    expect(ent.circleci.requests.map((r) => r.body)).to.deep.equal(['{"branch":"main","__proto__":{"parameters":1}}']);
  });
});

describe('approval bindings name the subject, how it authenticated, and the policy version (unit, a second test)', () => {
  const subject = { principal: PEOPLE.alice, tool: 'jira_delete', args: DELETE, policyVersion: 'sha256:aaaaaaaaaaaaaaaa' };

  it('changes the binding with any of them, and only with what changes what runs', () => {
    const base = bindingKey(subject);
    expect(bindingKey({ ...subject, principal: { ...PEOPLE.alice, subject: 'alice2' } })).not.to.equal(base);
    expect(bindingKey({ ...subject, principal: { ...PEOPLE.alice, via: 'oidc' } })).not.to.equal(base);
    expect(bindingKey({ ...subject, policyVersion: 'sha256:bbbbbbbbbbbbbbbb' })).not.to.equal(base);
    expect(bindingKey({ ...subject, args: { ...DELETE, outputFormat: 'json', jq: 'key' } })).to.equal(base);
  });

  it('does not spend a grant on another subject, or under another policy version', async () => {
    const store = new ApprovalStore(await openStore('memory://'), manualClock(), 60_000, 20, { deciders: new Deciders(['approvers']) });
    const decision: Decision = { effect: 'approval_required', ruleId: 'r', reason: 'Held.', policyVersion: subject.policyVersion };
    const held = await store.settle(decision, subject);
    await store.grant(held.approvalId!, APPROVERS.olga);
    expect((await store.settle(decision, { ...subject, principal: PEOPLE.rene })).effect).to.equal('approval_required');
    const newer = { ...decision, policyVersion: 'sha256:bbbbbbbbbbbbbbbb' };
    expect((await store.settle(newer, { ...subject, policyVersion: newer.policyVersion })).effect).to.equal('approval_required');
    expect((await store.settle(decision, subject)).effect).to.equal('allow');
  });
});

describe('approvals when the store fails', () => {
  let jira: MockUpstream;
  let circleci: MockUpstream;
  let kernel: Kernel;
  let store: StoreWithOutage;

  before(async () => {
    jira = await MockUpstream.start();
    circleci = await MockUpstream.start();
    const cwd = mkdtempSync(join(tmpdir(), 'approvals-outage-'));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: [ENTERPRISE_PLUGIN_PATH] }));
    writeFileSync(join(cwd, 'policy.yaml'), docsPolicyExample());
    const { plugins, settings } = await resolveConfig({
      cwd,
      home: cwd,
      env: { ...vendorEnv(jira.url, circleci.url), MCP_POLICY_FILE: join(cwd, 'policy.yaml'), MCP_RAW_RESPONSE_DIR: join(cwd, 'raw') },
    });
    store = new StoreWithOutage(await openStore('memory://'));
    kernel = await Kernel.start({
      plugins,
      settings,
      logger: createLogger({ level: 'fatal', secrets: settings.secretValues(), destination: { write: () => {} } }),
      store,
      artifactStore: createArtifactStore,
    });
  });
  after(async () => {
    await kernel?.close();
    await jira?.close();
    await circleci?.close();
  });

  it('refuses a call that needs an approval with store_unavailable, and sends nothing (it must never allow it)', async () => {
    jira.on('DELETE', '*', { status: 204 });
    store.down = true;
    const result = await kernel.call('jira_delete', DELETE, PEOPLE.alice);
    store.down = false;
    expect(decisionOf(result)).to.include({
      effect: 'deny',
      ruleId: 'deletes-need-approval',
      reason: 'The approvals store could not be reached, so the call is denied. Try again later.',
    });
    expect(textOf(result)).to.equal(
      [
        'Error: jira_delete (DELETE /rest/api/3/issue/PLAT-7) needs an approval, and the approvals store (MCP_STORE_URL) cannot be reached, so the call was refused and nothing was sent. Retry it shortly; a grant already given still holds.',
        'Code: store_unavailable',
      ].join('\n'),
    );
    expect(result._meta).to.deep.include({ code: 'store_unavailable' });
    expect(jira.requests).to.have.length(0);
    expect(decisionOf(await kernel.call('jira_delete', DELETE, PEOPLE.alice)).effect).to.equal('approval_required');
  });
});
