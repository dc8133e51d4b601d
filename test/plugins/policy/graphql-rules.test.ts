import { expect } from 'chai';
import { InvalidDocumentError } from '../../../core/schema/yaml-document.js';
import { readPolicyDocument } from '../../../plugins/policy/document/policy-document.js';
import type { CallFacts } from '../../../plugins/policy/engine/call-facts.js';
import { PolicyEngine } from '../../../plugins/policy/engine/policy-engine.js';

function rules(body: string): PolicyEngine {
  return new PolicyEngine(readPolicyDocument(`version: 1\nrules:\n${body}`, 'policy.yaml'));
}

/** A call of a GraphQL tool: POST to the endpoint, with the operation it runs. */
function graphqlCall(operation: 'query' | 'mutation', fields: string[], over: Partial<CallFacts> = {}): CallFacts {
  return {
    tool: 'linear_graphql',
    vendor: 'linear',
    readOnly: operation === 'query',
    identity: { vendor: 'linear', credential: 'LINEAR_API_KEY', host: 'api.linear.app', environment: 'production' },
    subject: 'alice',
    groups: ['developers'],
    method: 'POST',
    path: '/graphql',
    args: {},
    graphql: { operation, name: 'Op', fields },
    ...over,
  };
}

const POLICY = [
  '  - id: everyone-queries',
  '    effect: allow',
  '    match: { graphql: { operation: query } }',
  '  - id: developers-file-issues',
  '    effect: allow',
  '    match: { groups: [developers], graphql: { operation: mutation, fields: ["issueCreate", "commentCreate"] } }',
  '  - id: deletes-need-approval',
  '    effect: approval_required',
  '    match: { graphql: { operation: mutation, fields: ["*Delete", "*Archive"] } }',
  '  - id: no-admin-queries',
  '    effect: deny',
  '    match: { graphql: { fields: ["organization*"] } }',
  '',
].join('\n');

describe('policy rules on GraphQL operations (graphql: {operation, fields})', () => {
  const policy = rules(POLICY);

  it('allows a query by its operation, whatever its POST says of writing', () => {
    expect(policy.decide(graphqlCall('query', ['issues', 'viewer']))).to.include({ effect: 'allow', ruleId: 'everyone-queries' });
  });

  it('decides a mutation by its root fields: an allowed one runs, another is denied by default', () => {
    expect(policy.decide(graphqlCall('mutation', ['issueCreate']))).to.include({ effect: 'allow', ruleId: 'developers-file-issues' });
    expect(policy.decide(graphqlCall('mutation', ['issueUpdate']))).to.include({ effect: 'deny', ruleId: null });
  });

  it('decides an operation of several root fields field by field: the strictest decision wins', () => {
    // An allowed field cannot carry a forbidden one along, in either order.
    expect(policy.decide(graphqlCall('mutation', ['issueCreate', 'issueUpdate']))).to.include({ effect: 'deny', ruleId: null });
    expect(policy.decide(graphqlCall('mutation', ['issueDelete', 'issueCreate']))).to.include({ effect: 'approval_required', ruleId: 'deletes-need-approval' });
    expect(policy.decide(graphqlCall('query', ['issues', 'organizationMembers']))).to.include({ effect: 'deny', ruleId: 'no-admin-queries' });
  });

  it('never lets a graphql rule match a REST call', () => {
    const rest = graphqlCall('query', ['issues'], { tool: 'linear_get', method: 'GET', path: '/issues', graphql: null });
    expect(policy.decide(rest)).to.include({ effect: 'deny', ruleId: null });
  });

  it('explains each condition of the field that decided, with what the call had', () => {
    const { decision, rules: traces } = policy.explain(graphqlCall('mutation', ['issueCreate', 'issueArchive']));
    expect(decision).to.include({ effect: 'approval_required', ruleId: 'deletes-need-approval' });
    const held = traces.find((t) => t.id === 'deletes-need-approval')!;
    expect(held.applies).to.equal(true);
    expect(held.conditions).to.deep.equal([
      { block: 'match', key: 'graphql.operation', expected: 'mutation', actual: 'mutation', holds: true },
      { block: 'match', key: 'graphql.fields', expected: '[*Delete, *Archive]', actual: '[issueArchive]', holds: true },
    ]);
  });

  it('refuses a document whose graphql condition is empty or names an operation it does not support', () => {
    const refused = (body: string): string => {
      try {
        rules(body);
      } catch (error) {
        expect(error).to.be.instanceOf(InvalidDocumentError);
        return (error as Error).message;
      }
      throw new Error('the document was read');
    };
    expect(refused('  - { id: a, effect: allow, match: { graphql: {} } }\n')).to.contain('rules[0].match.graphql');
    expect(refused('  - { id: a, effect: allow, match: { graphql: { operation: subscription } } }\n')).to.contain('operation');
  });
});
