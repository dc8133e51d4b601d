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
  '`jira_post /rest/api/3/issue`': ['jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'PLAT' }, summary: 'x' } } }],
  '`jira_post` into project `SEC`': ['jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'SEC' }, summary: 'x' } } }],
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

  it('decides every cell of the worked example\'s table as it says', async () => {
    const table = DOC.slice(DOC.indexOf('What it decides'), DOC.indexOf('`mcp-devtools policy explain policy.yaml'));
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).to.have.length(Object.keys(TABLE_CALLS).length);
    const people = ['carol', 'alice', 'rene', 'dave'] as const;
    for (const row of rows) {
      const [label, ...cells] = row.split('|').slice(1, -1).map((c) => c.trim());
      const [tool, args] = TABLE_CALLS[label!]!;
      for (const [i, cell] of cells.entries()) {
        const result = await ent.kernel.call(tool, args, PEOPLE[people[i]!]);
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
    const real = readFileSync(audit, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, Record<string, unknown>>);
    const refused = real.find((r) => (r.tool as unknown) === 'jira_post' && r.principal!.subject === 'carol')!;
    expect(Object.keys(shown)).to.deep.equal(Object.keys(refused));
    for (const key of ['principal', 'decision', 'upstream', 'outcome']) expect(Object.keys(shown[key]!), key).to.deep.equal(Object.keys(refused[key]!));
  });
});
