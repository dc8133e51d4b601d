import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { InvalidDocumentError } from '../../../core/schema/yaml-document.js';
import { secretScrubber } from '../../../core/result/secret-scrubber.js';
import type { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { argumentPreview } from '../../../plugins/policy/approvals/argument-preview.js';
import { readPolicyDocument } from '../../../plugins/policy/document/policy-document.js';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { docsPolicyExample, PEOPLE, startEnterpriseKernel, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { REPO_ROOT } from '../../support/paths.js';

const noScrub = secretScrubber([]);

describe('what approvers see of a held call', () => {
  describe('the argument preview', () => {
    it('shows the values the call will send, as JSON', () => {
      const args = { path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main', parameters: { deploy_env: 'production', replicas: 3 } }, jq: 'id' };
      const preview = argumentPreview(args, { redact: [], scrub: noScrub });
      // jq and outputFormat change only how the answer is shown: approvers are not asked about them.
      expect(JSON.parse(preview.json)).to.deep.equal({ path: args.path, body: args.body });
      expect(preview.redacted).to.deep.equal([]);
    });

    it('hides the paths a rule or the setting names (a prefix covers what is under it, * any one key)', () => {
      const args = { body: { fields: { summary: 'Rotate', description: 'long text' }, notes: [{ text: 'a' }, { text: 'b' }], other: { text: 'kept' } } };
      const preview = argumentPreview(args, { redact: ['body.fields', 'body.notes.text'], scrub: noScrub });
      expect(JSON.parse(preview.json)).to.deep.equal({
        body: { fields: '[REDACTED]', notes: [{ text: '[REDACTED]' }, { text: '[REDACTED]' }], other: { text: 'kept' } },
      });
      expect(preview.redacted).to.deep.equal(['body.fields', 'body.notes.text']);
      expect(JSON.parse(argumentPreview(args, { redact: ['body.*.text'], scrub: noScrub }).json).body.other).to.deep.equal({ text: '[REDACTED]' });
    });

    it("hides every secret: under a credential's name, shaped like a token, or one the server is configured with", () => {
      const scrub = secretScrubber(['circleci-canary-secret-91bc']);
      const args = {
        body: {
          branch: 'main',
          parameters: { deployToken: 'anything', apiKey: 42, password: { nested: 'x' }, issueKey: 'PLAT-1' },
          note: 'use ghp_0123456789abcdefghijABCDEFGHIJ0123 then circleci-canary-secret-91bc',
          hook: 'https://deploy:hunter2-pass@hooks.acme.example/x',
          header: 'Bearer abcdefghijklmnopqrstuvwx',
        },
      };
      const shown = JSON.parse(argumentPreview(args, { redact: [], scrub }).json) as { body: Record<string, unknown> };
      expect(shown.body).to.deep.equal({
        branch: 'main',
        parameters: { deployToken: '[REDACTED]', apiKey: '[REDACTED]', password: '[REDACTED]', issueKey: 'PLAT-1' },
        note: 'use [REDACTED] then [REDACTED]',
        hook: 'https://deploy:[REDACTED]@hooks.acme.example/x',
        header: '[REDACTED]',
      });
    });

    it('cuts long strings, saying how long they were, and stays JSON whatever it cuts', () => {
      const big = 'x'.repeat(10_000);
      const preview = argumentPreview({ body: { text: big }, __proto__x: 1, ['__proto__']: 'kept as a key' } as Record<string, unknown>, {
        redact: [],
        scrub: noScrub,
      });
      const parsed = JSON.parse(preview.json) as { body: { text: string } };
      expect(parsed.body.text).to.equal(`${'x'.repeat(4000)}... (10000 characters)`);
      expect(Object.keys(parsed)).to.deep.equal(['body', '__proto__x', '__proto__']);
      const huge = argumentPreview({ items: Array.from({ length: 150 }, (_, i) => ({ i, text: 'y'.repeat(3000) })) }, { redact: [], scrub: noScrub });
      expect(huge.json.length).to.be.below(64 * 1024 + 1);
      expect(() => JSON.parse(huge.json)).not.to.throw();
    });
  });

  it("accepts the docs' rule with redact as written", () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs/policy.md'), 'utf8');
    const rule = /```yaml\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('### What approvers see')))![1]!;
    const loaded = readPolicyDocument(`version: 1\nrules:\n${rule}`, 'docs/policy.md');
    expect(loaded.document.rules[0]!.redact).to.deep.equal(['body.parameters.release_notes', 'body.*.customer_ids']);
  });

  it('refuses `redact` on a rule that holds nothing for approvers, naming its line', () => {
    const doc = 'version: 1\nrules:\n  - id: reads\n    effect: allow\n    redact: [body]\n';
    expect(() => readPolicyDocument(doc, 'policy.yaml'))
      .to.throw(InvalidDocumentError)
      .with.property('message')
      .that.includes('line 5: rules[0].redact: only an approval_required rule shows a call to approvers');
  });

  describe('a call held by the running server', () => {
    let ent: EnterpriseKernel;
    let approvals: ApprovalStore;
    const policy = docsPolicyExample().replace(
      '    match: { tools: ["*_delete", circleci_post] }',
      '    match: { tools: ["*_delete", circleci_post] }\n    redact: [body.parameters.release_notes]',
    );

    before(async () => {
      ent = await startEnterpriseKernel({ policy, env: { MCP_APPROVAL_REDACT: 'body.parameters.customer_list' } });
      approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
    });
    after(() => ent.close());

    it('keeps the values, less what the rule and the setting redact and every secret, with the identity that will act and the policy version', async () => {
      const result = (await ent.kernel.call(
        'circleci_post',
        {
          path: '/api/v2/project/gh/acme/app/pipeline',
          body: {
            branch: 'main',
            parameters: { deploy_env: 'production', release_notes: 'embargoed', customer_list: ['acme'], note: 'token circleci-canary-secret-91bc' },
          },
        },
        PEOPLE.rene,
      )) as CallToolResult;
      const decision = result._meta!.decision as Decision;
      const record = (await approvals.get(decision.approvalId!))!;
      expect(JSON.parse(record.arguments)).to.deep.equal({
        path: '/api/v2/project/gh/acme/app/pipeline',
        body: { branch: 'main', parameters: { deploy_env: 'production', release_notes: '[REDACTED]', customer_list: '[REDACTED]', note: 'token [REDACTED]' } },
      });
      expect(record.redacted).to.have.members(['body.parameters.release_notes', 'body.parameters.customer_list', 'body.parameters.note']);
      expect(record.identity).to.deep.equal({
        vendor: 'circleci',
        credential: 'circleci-deployer',
        host: new URL(ent.circleci.url).host,
        environment: 'production',
      });
      expect(record.policyVersion)
        .to.equal(decision.policyVersion)
        .and.to.match(/^sha256:[0-9a-f]{16}$/);
    });

    it('cuts a token out of the request path shown beside the arguments', async () => {
      const path = '/api/v2/project/gh/acme/app/checkout-key/ghp_16C7e42F292c6912E7710c838347Ae178B4a';
      const result = (await ent.kernel.call('circleci_post', { path, body: {} }, PEOPLE.rene)) as CallToolResult;
      const record = (await approvals.get((result._meta!.decision as Decision).approvalId!))!;
      expect(record.request).to.deep.equal({ method: 'POST', path: '/api/v2/project/gh/acme/app/checkout-key/[REDACTED]' });
      expect(JSON.parse(record.arguments).path).to.equal('/api/v2/project/gh/acme/app/checkout-key/[REDACTED]');
    });
  });
});
