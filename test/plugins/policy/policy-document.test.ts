import { expect } from 'chai';
import { InvalidDocumentError } from '../../../core/schema/yaml-document.js';
import { readPolicyDocument } from '../../../plugins/policy/document/policy-document.js';
import { docsPolicyExample } from '../../support/enterprise-fixture.js';
import { ISSUE_EXAMPLE } from '../../support/policy-issue-example.js';

function problemsOf(text: string): string {
  try {
    readPolicyDocument(text, 'policy.yaml');
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidDocumentError);
    return (error as Error).message;
  }
  throw new Error('the document was accepted');
}

describe('policy document', () => {
  it('reads the document shape of the issue and the worked example of docs/policy.md', () => {
    const issue = readPolicyDocument(ISSUE_EXAMPLE, 'issue.yaml');
    expect(issue.document.rules.map((r) => r.id)).to.deep.equal([
      'contractors-read-only',
      'deletes-need-approval',
      'jira-writes-for-developers',
      'everyone-reads',
    ]);
    expect(issue.ruleLines.get('deletes-need-approval')).to.equal(6);
    const docs = readPolicyDocument(docsPolicyExample(), 'docs.yaml');
    expect(docs.document.rules).to.have.length.greaterThan(4);
  });

  it('gives the same version to the same rules however they are laid out, and a new one when a rule changes', () => {
    const flow = readPolicyDocument(ISSUE_EXAMPLE, 'a.yaml').version;
    const block = readPolicyDocument(ISSUE_EXAMPLE.replace('match: { readOnly: true }', 'match:\n      readOnly: true  # everyone may read'), 'b.yaml').version;
    const changed = readPolicyDocument(ISSUE_EXAMPLE.replace('match: { readOnly: true }', 'match: { readOnly: false }'), 'c.yaml').version;
    expect(flow).to.match(/^sha256:[0-9a-f]{16}$/);
    expect(block).to.equal(flow);
    expect(changed).not.to.equal(flow);
  });

  it('names the line of a misspelt effect, listing the effects there are', () => {
    const message = problemsOf('version: 1\nrules:\n  - id: a\n    effect: alow\n');
    expect(message).to.equal('policy.yaml line 4: rules[0].effect: must be one of "allow", "deny", "approval_required", "confirm" (got "alow")');
  });

  it('reads a confirm rule, and still refuses an effect it does not know, naming confirm among those there are', () => {
    const read = readPolicyDocument('version: 1\nrules:\n  - id: ask\n    effect: confirm\n    reason: Ask first.\n    match: { readOnly: false }\n', 'p.yaml');
    expect(read.document.rules[0]).to.include({ id: 'ask', effect: 'confirm', reason: 'Ask first.' });
    expect(problemsOf('version: 1\nrules:\n  - id: a\n    effect: confirmed\n')).to.equal(
      'policy.yaml line 4: rules[0].effect: must be one of "allow", "deny", "approval_required", "confirm" (got "confirmed")',
    );
    expect(problemsOf('version: 1\nrules:\n  - id: a\n    effect: ask\n')).to.contain('(got "ask")');
  });

  it('names the line of an unknown key, wherever it is', () => {
    const message = problemsOf('version: 1\nrules:\n  - id: a\n    effect: deny\n    match:\n      tool: [x]\n');
    expect(message).to.equal('policy.yaml line 6: rules[0].match.tool: is not a known key');
    expect(problemsOf('version: 1\nrule: []\n')).to.contain('line 2: rule: is not a known key');
  });

  it('names wrong types, a missing id and an unsupported version', () => {
    expect(problemsOf('version: 1\nrules:\n  - id: a\n    effect: deny\n    match: { readOnly: maybe }\n')).to.contain(
      'line 5: rules[0].match.readOnly: must be boolean (got "maybe")',
    );
    expect(problemsOf('version: 1\nrules:\n  - effect: deny\n')).to.contain('line 3: rules[0].id: is required');
    expect(problemsOf('version: 2\nrules: []\n')).to.contain('line 1: version: must be equal to constant (got 2)');
    expect(problemsOf('version: 1\nrules:\n  - id: a\n    effect: deny\n    match: { methods: [post] }\n')).to.contain(
      'rules[0].match.methods[0]: must be one of "GET", "POST", "PUT", "PATCH", "DELETE" (got "post")',
    );
  });

  it('refuses a duplicate rule id, naming both lines', () => {
    const message = problemsOf('version: 1\nrules:\n  - id: same\n    effect: deny\n  - id: same\n    effect: allow\n');
    expect(message).to.equal('policy.yaml line 5: rules[1].id: "same" is already the id of the rule on line 3; rule ids must be unique.');
  });

  it('refuses a path pattern that cannot match a path as sent', () => {
    const message = problemsOf('version: 1\nrules:\n  - id: a\n    effect: deny\n    except:\n      paths: [rest/api/3/issue]\n');
    expect(message).to.contain('line 6: rules[0].except.paths[0]: "rest/api/3/issue" must start with "/"');
  });

  it('reports a YAML syntax error and a duplicate key with their lines', () => {
    expect(problemsOf('version: 1\nrules:\n  - id: a\n    effect: [deny\n')).to.match(/^policy\.yaml line \d+: /);
    expect(problemsOf('version: 1\nversion: 1\nrules: []\n')).to.match(/policy\.yaml line 2: .*[Uu]nique/);
  });
});
