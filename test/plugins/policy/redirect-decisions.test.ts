// Guards of the policy's decisions on requests beyond a call's route (issue 42's mutation round): a grant covers
// only what its own rule holds, and a redirect is decided on the path the vendor serves, not the path as written.
// In-process with a fixture vendor built from this repository's own modules, so mutation testing reaches them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { inject } from 'tsyringe';
import Type, { type Static } from 'typebox';
import type { Settings } from '../../../core/config/settings.js';
import type { UpstreamClient } from '../../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../../core/plugin/decorators.js';
import { TOKENS } from '../../../core/tokens.js';
import type { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { APPROVERS } from '../../support/enterprise-fixture.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { FixtureSettings, fixtureClient } from '../../fixtures/plugins/fixture-client.js';

const PartsArgs = Type.Object({ id: Type.String({ pattern: '^[a-z0-9-]{1,20}$' }) }, { additionalProperties: false });

/** A thing, then its parts: a route and one further request, as jira_get_attachment reads metadata then content. */
@Plugin({ name: 'fixture', version: '1.0.0', settings: FixtureSettings })
class PartsPlugin {
  readonly upstream: UpstreamClient;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.upstream = fixtureClient(settings, 'fixture', { retries: 0 });
  }

  @Tool({
    name: 'fixture_parts',
    title: 'A thing and its parts',
    description: 'Reads a thing, then its parts.',
    annotations: { readOnlyHint: true },
    input: PartsArgs,
    route: (args: Static<typeof PartsArgs>) => ({ method: 'GET', path: `/things/${args.id}` }),
    further: [{ method: 'GET', path: '/things/*/parts' }],
  })
  async parts(ctx: ToolContext<typeof PartsArgs>): Promise<ToolOutput> {
    const thing = (await this.upstream.send(ctx, ctx.route)).body;
    const parts = (await this.upstream.send(ctx, { method: 'GET', path: `/things/${ctx.args.id}/parts` })).body;
    return { value: { thing, parts } };
  }
}

const POLICY = [
  'version: 1',
  'rules:',
  // Listed first, so it is the rule that holds /things/b-1/parts too: one grant covers the whole call.
  '  - { id: both-held, effect: approval_required, match: { paths: [/things/b-1, /things/b-1/parts] } }',
  '  - { id: thing-held, effect: approval_required, match: { paths: [/things/g-1, /things/g-2] } }',
  '  - { id: parts-held, effect: approval_required, match: { paths: [/things/g-1/parts, /things/other/parts] } }',
  '  - { id: secret-parts, effect: deny, reason: Secret parts stay secret., match: { paths: [/things/secret/parts] } }',
  '  - { id: rest, effect: allow }',
  '',
].join('\n');

describe('policy: what a grant covers, and the path a redirect is decided on', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    const file = join(mkdtempSync(join(tmpdir(), 'redirect-decisions-')), 'policy.yaml');
    writeFileSync(file, POLICY);
    kernel = await startTestKernel({
      plugins: [PartsPlugin],
      env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'fixture-token-redirects', MCP_POLICY_FILE: file, MCP_APPROVER_GROUPS: 'approvers' },
    });
  });
  after(async () => {
    await kernel?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.reset();
    mock.on('GET', '/things/:id', (r) => ({ body: { id: r.params.id } }));
    mock.on('GET', '/things/:id/parts', { body: [{ part: 'bolt' }] });
  });

  const sent = (): string[] => mock.requests.map((r) => r.url);

  /** Calls fixture_parts, which a rule holds; an approver grants it; the same call runs again, once. */
  async function heldThenGranted(id: string, rule: string): Promise<Awaited<ReturnType<TestKernel['call']>>> {
    const held = await kernel.call('fixture_parts', { id });
    expect(held._meta?.decision, textOf(held)).to.deep.include({ effect: 'approval_required', ruleId: rule });
    const approvalId = (held._meta?.decision as { approvalId: string }).approvalId;
    await kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals).grant(approvalId, APPROVERS.olga);
    return kernel.call('fixture_parts', { id });
  }

  it('lets a grant cover a further request its own rule holds', async () => {
    const result = await heldThenGranted('b-1', 'both-held');
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(sent()).to.deep.equal(['/things/b-1', '/things/b-1/parts']);
  });

  it('does not let a grant under one rule cover a further request another rule holds', async () => {
    const result = await heldThenGranted('g-1', 'thing-held');
    expect(textOf(result)).to.match(
      /^Error: The policy refused GET \/things\/g-1\/parts, a further request of the fixture plugin's fixture_parts \(which declares GET \/things\/g-1\), for local: .* It needs an approver's grant, which cannot be asked for in the middle of a call; use a tool whose own request is that one\. \(rule parts-held; policy sha256:[0-9a-f]{16}\)\nCode: policy_denied$/,
    );
    expect(sent()).to.deep.equal(['/things/g-1']);
  });

  it('does not let a grant under one rule cover a redirect another rule holds', async () => {
    mock.on('GET', '/things/g-2', { status: 302, headers: { location: '/things/other/parts' } });
    const result = await heldThenGranted('g-2', 'thing-held');
    expect(textOf(result))
      .to.contain('fixture_parts (GET /things/g-2) was redirected to /things/other/parts, which the policy refuses for local:')
      .and.to.contain("It needs an approver's grant: call that path itself. (rule parts-held;");
    expect(sent()).to.deep.equal(['/things/g-2']);
  });

  it('decides a redirect on the path as the vendor serves it: /things/%73ecret/parts is /things/secret/parts', async () => {
    mock.on('GET', '/things/w-1/parts', { status: 302, headers: { location: '/things/%73ecret/parts' } });
    const result = await kernel.call('fixture_parts', { id: 'w-1' });
    expect(textOf(result)).to.match(
      /^Error: fixture_parts \(GET \/things\/w-1\/parts\) was redirected to \/things\/%73ecret\/parts, which the policy refuses for local: Secret parts stay secret\. \(rule secret-parts; policy sha256:[0-9a-f]{16}\)\nCode: policy_denied$/,
    );
    expect(sent()).to.deep.equal(['/things/w-1', '/things/w-1/parts']);
  });
});
