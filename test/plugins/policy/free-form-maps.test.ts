import { expect } from 'chai';
import Type from 'typebox';
import { readToolSpecs } from '../../../core/plugin/metadata.js';
import { secretScrubber } from '../../../core/result/secret-scrubber.js';
import { argumentPreview } from '../../../plugins/policy/approvals/argument-preview.js';
import type { ApprovalRecord } from '../../../plugins/policy/approvals/approval-record.js';
import { freeFormMaps } from '../../../plugins/policy/approvals/free-form-maps.js';
import { approvalEvent } from '../../../plugins/policy/approvals/notify/approval-event.js';
import { VENDORS } from '../../../server/bootstrap/builtin-plugins.js';

const PASSTHROUGH_VERBS = ['get', 'post', 'put', 'patch', 'delete'];

/** A record as the store keeps it for a held `circleci_trigger_pipeline`. */
function heldTrigger(args: Record<string, unknown>): ApprovalRecord {
  const preview = argumentPreview(args, { redact: [], scrub: secretScrubber([]), maps: ['parameters'] });
  return {
    id: 'apr-0123456789abcdef01234567',
    status: 'pending',
    subject: 'rene',
    groups: ['release-engineers'],
    via: 'tokens',
    tool: 'circleci_trigger_pipeline',
    request: { method: 'POST', path: '/api/v2/project/gh/acme/app/pipeline' },
    arguments: preview.json,
    redacted: preview.redacted,
    withheld: preview.withheld,
    identity: null,
    argsHash: 'h',
    binding: 'b',
    policyVersion: 'sha256:0000000000000000',
    ruleId: 'triggers',
    reason: 'Triggers are reviewed.',
    createdAt: '2026-11-30T09:00:00.000Z',
    expiresAt: '2026-11-30T09:15:00.000Z',
    ttlMs: 900_000,
  };
}

describe("free-form maps: names to the webhook receiver, values to the approver's console only", () => {
  it('finds, by schema, the maps of the built-in tools: the typed tools’ parameters, variables and inputs, and the passthroughs’ query parameters', async () => {
    const found: Record<string, readonly string[]> = {};
    for (const load of Object.values(VENDORS)) {
      for (const { spec } of readToolSpecs(await load())) {
        const maps = freeFormMaps(spec.input);
        if (maps.length > 0) found[spec.name] = maps;
      }
    }
    const passthroughs = Object.keys(found).filter((name) => PASSTHROUGH_VERBS.some((verb) => name.endsWith(`_${verb}`)));
    expect(Object.fromEntries(Object.entries(found).filter(([name]) => !passthroughs.includes(name)))).to.deep.equal({
      github_dispatch_workflow: ['inputs'],
      circleci_trigger_pipeline: ['parameters'],
      bb_run_pipeline: ['variables'],
    });
    expect(passthroughs.map((name) => found[name])).to.deep.equal(passthroughs.map(() => ['queryParams']));
    expect(passthroughs).to.include.members(['circleci_post', 'jira_delete', 'bb_post', 'conf_put', 'github_get']);
  });

  it('takes neither a request body of any JSON nor an object with fixed fields for one', () => {
    const input = Type.Object({
      body: Type.Record(Type.String(), Type.Unknown()),
      target: Type.Object({ ref: Type.String() }),
      nested: Type.Object({ env: Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()])) }),
      labels: Type.Array(Type.String()),
    });
    expect(freeFormMaps(input)).to.deep.equal(['nested.env']);
  });

  it("sends a receiver each map's names with its values withheld, the rest as approvers see it", () => {
    const record = heldTrigger({
      projectSlug: 'gh/acme/app',
      branch: 'main',
      parameters: { DEPLOY_TOKEN: 'dtok-91f3c2', deploy_env: 'production', replicas: 3 },
    });
    expect(JSON.parse(record.arguments).parameters).to.deep.equal({ DEPLOY_TOKEN: '[REDACTED]', deploy_env: 'production', replicas: 3 });
    const event = approvalEvent('approval.held', record, '2026-11-30T09:00:00.000Z', undefined);
    expect(event.approval.arguments).to.deep.equal({
      projectSlug: 'gh/acme/app',
      branch: 'main',
      parameters: { DEPLOY_TOKEN: '[REDACTED]', deploy_env: '[WITHHELD]', replicas: '[WITHHELD]' },
    });
    expect(event.approval.withheld).to.deep.equal(['parameters']);
    expect(event.approval.redacted).to.deep.equal(['parameters.DEPLOY_TOKEN']);
    // The record itself, what the console shows, keeps the values.
    expect(JSON.parse(record.arguments).parameters.deploy_env).to.equal('production');
  });

  it('withholds nothing of a call that fills no map, and keeps a map named __proto__ a key', () => {
    const plain = heldTrigger({ projectSlug: 'gh/acme/app', branch: 'main' });
    expect(plain.withheld).to.deep.equal([]);
    expect(approvalEvent('approval.held', plain, '2026-11-30T09:00:00.000Z', undefined).approval.arguments).to.deep.equal({
      projectSlug: 'gh/acme/app',
      branch: 'main',
    });
    const odd = heldTrigger({ parameters: JSON.parse('{"__proto__": "x", "ok": true}') as Record<string, unknown> });
    const shown = approvalEvent('approval.held', odd, '2026-11-30T09:00:00.000Z', undefined).approval.arguments as { parameters: object };
    expect(Object.keys(shown.parameters)).to.deep.equal(['__proto__', 'ok']);
    expect(Object.values(shown.parameters)).to.deep.equal(['[WITHHELD]', '[WITHHELD]']);
  });
});
