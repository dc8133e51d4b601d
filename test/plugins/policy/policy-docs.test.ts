import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { readPolicyDocument } from '../../../plugins/policy/document/policy-document.js';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { readTokensFile } from '../../../server/auth/tokens-file.js';
import { PEOPLE, startEnterpriseKernel, tempFile, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { REPO_ROOT } from '../../support/paths.js';

const DOC = readFileSync(join(REPO_ROOT, 'docs/policy.md'), 'utf8');

/** The first fenced block of `lang` after `heading`. */
function block(heading: string, lang: string): string {
  const at = DOC.indexOf(heading);
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(DOC.slice(at));
  if (at < 0 || match === null) throw new Error(`docs/policy.md: no ${lang} block after "${heading}"`);
  return match[1]!;
}

/** The calls of the decision table, as tool and arguments. */
const TABLE_CALLS: Record<string, [string, Record<string, unknown>]> = {
  '`jira_get`': ['jira_get', { path: '/rest/api/3/issue/PLAT-1' }],
  '`jira_post /rest/api/3/issue` into `PLAT`': ['jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'PLAT' }, summary: 'x' } } }],
  '`jira_put /rest/api/3/issue/PLAT-1`': ['jira_put', { path: '/rest/api/3/issue/PLAT-1', body: { fields: { summary: 'y' } } }],
  '`jira_post /rest/api/3/issue` into `SEC`': ['jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'SEC' }, summary: 'x' } } }],
  '`jira_put /rest/api/3/issue/SEC-1`': ['jira_put', { path: '/rest/api/3/issue/SEC-1', body: { fields: { summary: 'y' } } }],
  '`jira_post /rest/api/3/issue/SEC-1/comment`': ['jira_post', { path: '/rest/api/3/issue/SEC-1/comment', body: { body: 'z' } }],
  '`jira_put /rest/api/2/issue/SEC-1`': ['jira_put', { path: '/rest/api/2/issue/SEC-1', body: { fields: { summary: 'y' } } }],
  '`jira_put /rest/api/3/issue/10001` (`SEC-1` by number)': ['jira_put', { path: '/rest/api/3/issue/10001', body: { fields: { summary: 'y' } } }],
  '`jira_post /rest/api/3/issue/bulk` into `SEC`': [
    'jira_post',
    { path: '/rest/api/3/issue/bulk', body: { issueUpdates: [{ fields: { project: { key: 'SEC' }, summary: 'x' } }] } },
  ],
  '`jira_post /rest/api/3/issue` into project id `10400`': [
    'jira_post',
    { path: '/rest/api/3/issue', body: { fields: { project: { id: '10400' }, summary: 'x' } } },
  ],
  '`jira_delete /rest/api/3/issue/PLAT-1`': ['jira_delete', { path: '/rest/api/3/issue/PLAT-1' }],
  '`circleci_get`': ['circleci_get', { path: '/api/v2/pipeline' }],
  '`circleci_post` (trigger a pipeline)': ['circleci_post', { path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } }],
};

describe('docs/policy.md examples', () => {
  let ent: EnterpriseKernel;
  const audit = tempFile('audit.jsonl', '');

  before(async () => {
    ent = await startEnterpriseKernel({ env: { MCP_AUDIT_LOG: audit } });
    for (const method of ['POST', 'PUT', 'DELETE']) ent.jira.on(method, '*', { status: 204 });
    ent.jira.on('GET', '*', { body: {} });
    ent.circleci.on('GET', '*', { body: {} });
    ent.circleci.on('POST', '*', { status: 201, body: {} });
  });
  after(() => ent.close());

  it("decides every cell of the worked example's table as it says", async () => {
    const table = DOC.slice(DOC.indexOf('What it decides'), DOC.indexOf('`mcp-devtools policy explain policy.yaml'));
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).to.have.length(Object.keys(TABLE_CALLS).length);
    const people = ['carol', 'alice', 'rene', 'dave'] as const;
    for (const row of rows) {
      const [label, ...cells] = row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const [tool, args] = TABLE_CALLS[label!]!;
      for (const [i, cell] of cells.entries()) {
        // As an MCP client sends it, named: the audit record keeps the client (the sample below shows one).
        const result = await ent.kernel.kernel.call(tool, args, PEOPLE[people[i]!], { client: { name: 'claude-code', version: '2.1.3' } });
        const decision = (result._meta!.decision as Decision | undefined) ?? { effect: 'allow', ruleId: null };
        const [effect, rule] = cell.split(': ');
        const where = `${label} by ${people[i]}: ${cell}`;
        expect(decision.effect, where).to.equal(effect === 'approval' ? 'approval_required' : effect);
        if (rule === 'no rule allows it') expect(decision.ruleId, where).to.equal(null);
        else if (rule?.endsWith('...')) expect(decision.ruleId, where).to.match(new RegExp(`^${rule.slice(0, -3)}`));
        else if (rule !== undefined) expect(decision.ruleId, where).to.equal(rule);
      }
    }
  });

  // The review's finding: the example promised that agents never touch SEC, and a developer could still edit,
  // comment on, bulk-create and create-by-id there. Every way round it must be refused, for every developer,
  // and nothing may reach Jira.
  const AROUND: Array<[string, Record<string, unknown>]> = [
    ...Object.entries(TABLE_CALLS)
      .filter(([label]) => /SEC|10400|10001/.test(label))
      .map(([, call]) => call),
    ['jira_put', { path: '/rest/api/latest/issue/SEC-1' }],
    ['jira_put', { path: '/rest/agile/1.0/issue/SEC-1', body: { rankBeforeIssue: 'SEC-2' } }],
    ['jira_post', { path: '/rest/api/3/issue/sec-1/transitions', body: { transition: { id: '31' } } }],
    ['jira_post', { path: '/rest/api/3/issue/%53EC-1/comment', body: { body: 'z' } }],
    ['jira_post', { path: '/rest/api/3/issue/%2553EC-1/comment', body: { body: 'z' } }],
    ['jira_put', { path: '/rest/api/3/issue//SEC-1/', body: {} }],
    ['jira_put', { path: '/rest/api/3/issue/SEC-1?notifyUsers=false', body: {} }],
    ['jira_put', { path: '/rest/api/3/issue/PLAT-1/../SEC-1', body: {} }],
    ['jira_put', { path: '/rest/api/3/issue/PLAT-1/..;/SEC-1', body: {} }],
    ['jira_put', { path: '/rest/api/3/issue/SEC-1;x=PLAT-1', body: {} }],
    ['jira_put', { path: '/rest/api/3/issue/PLAT-1%2f..%2fSEC-1', body: {} }],
    ['jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'sec' }, summary: 'x' } } }],
    ['jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: ['PLAT', 'SEC'] }, summary: 'x' } } }],
    ['jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'SEC', id: '10000' } } } }],
    ['jira_post', { path: '/rest/api/2/issue', body: { fields: { project: { key: 'PLAT' } } } }],
    ['jira_post', { path: '/rest/api/3/issue/PLAT-1/../../issue', body: { fields: { project: { id: '10400' } } } }],
    ['jira_post', { path: '/rest/api/3/issueLink', body: { inwardIssue: { key: 'SEC-1' }, outwardIssue: { key: 'PLAT-1' }, type: { name: 'Blocks' } } }],
    ['jira_put', { path: '/rest/api/3/project/SEC', body: { lead: 'alice' } }],
    ['jira_put', { path: '/rest/api/3/issue/SEC-1#PLAT-1', body: {} }],
    ['jira_delete', { path: '/rest/api/3/issue/SEC-1' }],
  ];

  it('refuses every way round "agents never change the security project", for every developer, sending nothing', async () => {
    ent.jira.reset();
    for (const method of ['POST', 'PUT', 'DELETE']) ent.jira.on(method, '*', { status: 204 });
    for (const person of [PEOPLE.alice, PEOPLE.rene]) {
      for (const [tool, args] of AROUND) {
        const result = await ent.kernel.call(tool, args, person);
        const where = `${person.subject}: ${tool} ${JSON.stringify(args)}`;
        expect(result.isError, where).to.equal(true);
        expect((result.content[0] as { text: string }).text, where).to.match(/\nCode: (policy_denied|invalid_path)$/);
      }
    }
    expect(ent.jira.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal([]);
  });

  it('still lets developers do what the example allows them (the control)', async () => {
    ent.jira.reset();
    for (const method of ['POST', 'PUT']) ent.jira.on(method, '*', { status: 204 });
    for (const [tool, args] of [
      TABLE_CALLS['`jira_post /rest/api/3/issue` into `PLAT`']!,
      TABLE_CALLS['`jira_put /rest/api/3/issue/PLAT-1`']!,
      ['jira_post', { path: '/rest/api/3/issue/OPS-7/comment', body: { body: 'z' } }] as const,
    ]) {
      expect((await ent.kernel.call(tool, args, PEOPLE.alice)).isError, `${tool} ${JSON.stringify(args)}`).to.equal(undefined);
    }
    expect(ent.jira.requests).to.have.length(3);
  });

  it('shows a refusal exactly shaped as the server returns it', async () => {
    const shown = JSON.parse(block('## What a refused call returns', 'json')) as { content: Array<{ text: string }>; _meta: { decision: object } };
    const real = await ent.kernel.call('jira_post', { path: '/rest/api/3/issue' }, PEOPLE.carol);
    const version = (real._meta!.decision as Decision).policyVersion;
    expect(shown.content[0]!.text).to.equal((real.content[0] as { text: string }).text.replace(version, 'sha256:610990fba2bb8a9c'));
    expect(Object.keys(shown._meta)).to.deep.equal(Object.keys(real._meta!));
    expect(shown._meta.decision).to.deep.equal({ ...(real._meta!.decision as object), policyVersion: 'sha256:610990fba2bb8a9c' });
  });

  it('has a tokens file and a rule sketch that the server accepts', () => {
    const tokens = readTokensFile(block('### Tokens file', 'yaml'), 'docs tokens');
    expect([...tokens.values()].map((p) => p.subject)).to.deep.equal(['alice', 'carol']);
    expect(readPolicyDocument(block('## Policy documents', 'yaml'), 'docs sketch').document.rules[0]!.except).to.deep.equal({ subjects: ['carol'] });
  });

  it('shows an audit record laid out as a real one', () => {
    const shown = JSON.parse(block('## Audit log', 'json')) as Record<string, Record<string, unknown>>;
    const real = readFileSync(audit, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, Record<string, unknown>>);
    const refused = real.find((r) => (r.tool as unknown) === 'jira_post' && r.principal!.subject === 'carol')!;
    expect(Object.keys(shown)).to.deep.equal(Object.keys(refused));
    for (const key of ['principal', 'decision', 'upstream', 'outcome']) expect(Object.keys(shown[key]!), key).to.deep.equal(Object.keys(refused[key]!));
  });
});
