import { expect } from 'chai';
import { readPolicyDocument } from '../../../plugins/policy/document/policy-document.js';
import { servedPath } from '../../../core/http/path-guards.js';
import type { CallFacts } from '../../../plugins/policy/engine/call-facts.js';
import { PolicyEngine } from '../../../plugins/policy/engine/policy-engine.js';
import { generatePolicy, random, randomFacts } from '../../bench/policy-rules.js';
import { ISSUE_EXAMPLE } from '../../support/policy-issue-example.js';

function engine(text: string): PolicyEngine {
  return new PolicyEngine(readPolicyDocument(text, 'policy.yaml'));
}

function rules(body: string): PolicyEngine {
  return engine(`version: 1\nrules:\n${body}`);
}

/** A Jira read by a developer, unless told otherwise. */
function call(over: Partial<CallFacts> = {}): CallFacts {
  return {
    tool: 'jira_get',
    vendor: 'jira',
    readOnly: true,
    identity: { vendor: 'jira', credential: 'jira-bot', host: 'acme.atlassian.net', environment: 'production' },
    subject: 'alice',
    groups: ['developers'],
    method: 'GET',
    path: '/rest/api/3/issue/PLAT-1',
    args: { path: '/rest/api/3/issue/PLAT-1' },
    ...over,
  };
}

const write = (tool: string, method: string, path: string, over: Partial<CallFacts> = {}): CallFacts =>
  call({ tool, method, path, readOnly: false, args: { path }, ...over });

describe('policy engine', () => {
  describe('the confirm effect', () => {
    const policy = rules(
      '  - id: reads\n    effect: allow\n    match: { readOnly: true }\n' +
        '  - id: ask-writes\n    effect: confirm\n    reason: Ask the person first.\n    match: { readOnly: false }\n' +
        '  - id: deletes-need-approval\n    effect: approval_required\n    match: { methods: [DELETE] }\n' +
        '  - id: no-sec\n    effect: deny\n    match: { paths: ["/rest/api/3/issue/SEC-*"] }\n',
    );

    it('decides confirm for a write the rule matches, with its reason, and leaves reads allowed', () => {
      expect(policy.decide(write('jira_put', 'PUT', '/rest/api/3/issue/PLAT-1'))).to.include({
        effect: 'confirm',
        ruleId: 'ask-writes',
        reason: 'Ask the person first.',
      });
      expect(policy.decide(call()).effect).to.equal('allow');
    });

    it('is beaten by approval_required and by deny: a confirm rule never weakens a hold or a refusal', () => {
      expect(policy.decide(write('jira_delete', 'DELETE', '/rest/api/3/issue/PLAT-1')).effect).to.equal('approval_required');
      expect(policy.decide(write('jira_put', 'PUT', '/rest/api/3/issue/SEC-1')).effect).to.equal('deny');
    });

    it('explains the same decision as it decides', () => {
      const facts = write('jira_put', 'PUT', '/rest/api/3/issue/PLAT-1');
      expect(policy.explain(facts).decision).to.deep.equal(policy.decide(facts));
    });
  });

  describe('the document of the issue', () => {
    const policy = engine(ISSUE_EXAMPLE);

    it('lets everyone read and refuses contractors any write', () => {
      expect(policy.decide(call({ subject: 'carol', groups: ['contractors'] }))).to.include({ effect: 'allow', ruleId: 'everyone-reads' });
      expect(policy.decide(write('jira_post', 'POST', '/rest/api/3/issue', { subject: 'carol', groups: ['contractors'] }))).to.include({
        effect: 'deny',
        ruleId: 'contractors-read-only',
      });
    });

    it('lets developers create and edit issues, and comment on them', () => {
      expect(policy.decide(write('jira_post', 'POST', '/rest/api/3/issue'))).to.include({ effect: 'allow', ruleId: 'jira-writes-for-developers' });
      expect(policy.decide(write('jira_put', 'PUT', '/rest/api/3/issue/PLAT-1'))).to.include({ effect: 'allow', ruleId: 'jira-writes-for-developers' });
      expect(policy.decide(write('jira_post', 'POST', '/rest/api/3/issue/PLAT-1/comment'))).to.include({
        effect: 'allow',
        ruleId: 'jira-writes-for-developers',
      });
    });

    it('holds deletes and pipeline triggers for approval, for anyone not denied outright', () => {
      expect(policy.decide(write('jira_delete', 'DELETE', '/rest/api/3/issue/PLAT-1'))).to.include({
        effect: 'approval_required',
        ruleId: 'deletes-need-approval',
      });
      expect(policy.decide(write('circleci_post', 'POST', '/api/v2/project/gh/acme/app/pipeline', { vendor: 'circleci' }))).to.include({
        effect: 'approval_required',
      });
      expect(policy.decide(write('jira_delete', 'DELETE', '/rest/api/3/issue/PLAT-1', { subject: 'carol', groups: ['contractors'] }))).to.include({
        effect: 'deny',
        ruleId: 'contractors-read-only',
      });
    });

    it('denies what no rule allows, saying so, with no rule id', () => {
      const decision = policy.decide(write('jira_post', 'POST', '/rest/api/3/project', { subject: 'dave', groups: [] }));
      expect(decision).to.deep.equal({
        effect: 'deny',
        ruleId: null,
        reason: 'No rule of the policy allows jira_post for dave.',
        policyVersion: policy.version,
      });
    });
  });

  it('ranks deny over approval_required over allow, wherever the rules stand in the document', () => {
    const all = rules(`  - { id: a, effect: allow }\n  - { id: h, effect: approval_required }\n  - { id: d, effect: deny, match: { subjects: [mallory] } }\n`);
    expect(all.decide(call())).to.include({ effect: 'approval_required', ruleId: 'h' });
    expect(all.decide(call({ subject: 'mallory' }))).to.include({ effect: 'deny', ruleId: 'd' });
    const allowOnly = rules(`  - { id: first, effect: allow, match: { readOnly: true } }\n  - { id: second, effect: allow }\n`);
    expect(allowOnly.decide(call()).ruleId).to.equal('first');
  });

  it('reports the first rule of the deciding effect in document order, whichever way the engine finds it', () => {
    const policy = rules(
      `  - { id: by-arg, effect: deny, match: { args: { owner: acme } } }\n  - { id: by-path, effect: deny, match: { paths: [/repos/acme/*] } }\n` +
        `  - { id: by-group, effect: deny, match: { groups: [developers] } }\n  - { id: rest, effect: allow }\n`,
    );
    const facts = call({ path: '/repos/acme/app', args: { owner: 'acme' } });
    expect(policy.decide(facts).ruleId).to.equal('by-arg');
    expect(policy.decide({ ...facts, args: {} }).ruleId).to.equal('by-path');
    expect(policy.decide({ ...facts, args: {}, path: '/repos/other/app' }).ruleId).to.equal('by-group');
    expect(policy.explain(facts).decision.ruleId).to.equal('by-arg');
  });

  it('skips a rule whose exception holds', () => {
    const policy = rules(
      `  - id: prod-ci\n    effect: deny\n    match: { vendors: [circleci], environments: [production] }\n    except: { groups: [release-engineers] }\n  - { id: rest, effect: allow }\n`,
    );
    const ci = {
      tool: 'circleci_get',
      vendor: 'circleci',
      identity: { vendor: 'circleci', credential: 'deployer', host: 'circleci.com', environment: 'production' },
    };
    expect(policy.decide(call({ ...ci }))).to.include({ effect: 'deny', ruleId: 'prod-ci' });
    expect(policy.decide(call({ ...ci, groups: ['developers', 'release-engineers'] }))).to.include({ effect: 'allow', ruleId: 'rest' });
    expect(policy.decide(call({ ...ci, identity: { ...ci.identity, environment: 'staging' } }))).to.include({ effect: 'allow' });
  });

  it('matches globs across slashes and without regard to case, but subjects and groups exactly', () => {
    const policy = rules(
      `  - { id: secret, effect: deny, match: { paths: ["/repos/acme/secret*"] } }\n  - { id: ops, effect: deny, match: { groups: [ops] } }\n  - { id: rest, effect: allow }\n`,
    );
    for (const path of ['/repos/acme/secret', '/repos/ACME/Secret/issues/1', '/repos/acme/secret-2'])
      expect(policy.decide(call({ path })).ruleId, path).to.equal('secret');
    expect(policy.decide(call({ path: '/repos/acme/public' })).ruleId).to.equal('rest');
    expect(policy.decide(call({ path: '/repos/acme/public', groups: ['OPS'] })).ruleId).to.equal('rest');
  });

  it('matches the path as the vendor reads it: encoded, doubled or trailing slashes and the query do not hide it', () => {
    expect(servedPath('/repos//ACME/%2573ecret/?page=2')).to.equal('/repos/ACME/secret');
    expect(servedPath('/')).to.equal('/');
    // A malformed escape elsewhere does not keep an encoded letter from matching.
    expect(servedPath('/rest/api/3/%69ssue/PLAT-1/%c0')).to.equal('/rest/api/3/issue/PLAT-1/%c0');
    const policy = rules(`  - { id: secret, effect: deny, match: { paths: [/repos/acme/secret/] } }\n  - { id: rest, effect: allow }\n`);
    expect(policy.decide(call({ path: servedPath('/repos/acme/%73ecret?x=1') })).ruleId).to.equal('secret');
  });

  it('matches the upstream identity: credential, host and environment', () => {
    const policy = rules(`  - { id: bot, effect: allow, match: { credentials: [jira-*], hosts: ["*.atlassian.net"], environments: [production] } }\n`);
    expect(policy.decide(call()).effect).to.equal('allow');
    expect(policy.decide(call({ identity: { vendor: 'jira', credential: 'jira-bot', host: 'jira.internal', environment: 'production' } })).effect).to.equal(
      'deny',
    );
    expect(policy.decide(call({ tool: 'artifact_read', vendor: 'artifacts', identity: null })).effect).to.equal('deny');
  });

  it('matches argument values at a dotted path: any listed value, any element of a list, exact numbers and booleans', () => {
    const policy = rules(
      `  - { id: sec, effect: deny, match: { args: { body.fields.project.key: [SEC, "HR*"] } } }\n` +
        `  - { id: label, effect: deny, match: { args: { body.labels: incident } } }\n` +
        `  - { id: big, effect: deny, match: { args: { perPage: 100, draft: true } } }\n  - { id: rest, effect: allow }\n`,
    );
    const decide = (args: Record<string, unknown>): string | null => policy.decide(call({ args })).ruleId;
    expect(decide({ body: { fields: { project: { key: 'sec' } } } })).to.equal('sec');
    expect(decide({ body: { fields: { project: { key: 'HR-payroll' } } } })).to.equal('sec');
    expect(decide({ body: { fields: { project: { key: 'PLAT' } } } })).to.equal('rest');
    expect(decide({ body: { labels: ['customer', 'incident'] } })).to.equal('label');
    expect(decide({ perPage: 100, draft: true })).to.equal('big');
    expect(decide({ perPage: '100', draft: true })).to.equal('rest');
    expect(decide({ perPage: 100 })).to.equal('rest');
    expect(decide({})).to.equal('rest');
  });

  it('does not match methods or paths of a tool that makes no upstream request', () => {
    const policy = rules(`  - { id: gets, effect: allow, match: { methods: [GET] } }\n  - { id: all, effect: allow, match: { paths: ["*"] } }\n`);
    expect(policy.decide(call({ method: null, path: null })).effect).to.equal('deny');
  });

  it('denies when a rule cannot be evaluated', () => {
    const policy = rules(`  - { id: sec, effect: deny, match: { args: { body.key: SEC } } }\n  - { id: rest, effect: allow }\n`);
    const args = {};
    Object.defineProperty(args, 'body', {
      enumerable: true,
      get: () => {
        throw new Error('argument getter failed');
      },
    });
    const decision = policy.decide(call({ args }));
    expect(decision).to.include({ effect: 'deny', ruleId: null });
    expect(decision.reason).to.contain('could not be evaluated (argument getter failed)');
    expect(policy.explain(call({ args })).decision).to.deep.equal(decision);
  });

  it('explains every condition of every rule, and decides as the fast path does', () => {
    const policy = engine(ISSUE_EXAMPLE);
    const { decision, rules: trace } = policy.explain(
      write('jira_delete', 'DELETE', '/rest/api/3/issue/PLAT-1', { subject: 'carol', groups: ['contractors'] }),
    );
    expect(decision.ruleId).to.equal('contractors-read-only');
    expect(trace.map((r) => [r.id, r.applies, r.line])).to.deep.equal([
      ['contractors-read-only', true, 3],
      ['deletes-need-approval', true, 6],
      ['jira-writes-for-developers', false, 9],
      ['everyone-reads', false, 12],
    ]);
    expect(trace[2]!.conditions.filter((c) => !c.holds).map((c) => `${c.key} ${c.expected} had ${c.actual}`)).to.deep.equal([
      'groups [developers] had [contractors]',
      'methods [POST, PUT] had DELETE',
    ]);
  });

  for (const [name, text, subjects] of [
    ['a generated 500-rule document', generatePolicy(500), 100],
    ['a generated 500-rule document, with callers it does not name', generatePolicy(500), 300],
  ] as const) {
    it(`decides exactly as explain does on ${name} (2,000 random calls)`, () => {
      const policy = engine(text);
      const next = random(7);
      const effects = new Set<string>();
      for (let i = 0; i < 2000; i++) {
        const facts = randomFacts(next, subjects);
        const fast = policy.decide(facts);
        expect(fast, JSON.stringify(facts)).to.deep.equal(policy.explain(facts).decision);
        effects.add(`${fast.effect}:${fast.ruleId === null}`);
      }
      // The sample reaches every kind of outcome, so the comparison means something.
      expect([...effects].sort()).to.deep.equal(['allow:false', 'approval_required:false', 'deny:false', 'deny:true']);
    });
  }
});
