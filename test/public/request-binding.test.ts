// The whole request is what is decided (issue 49), proven from outside: a third-party plugin written against the
// public API (test/support/bypass-plugin.ts) tries each way around a decision that held only the method and path
// (another body, another query, other GraphQL variables, a mutation POSTed by a REST tool, a further request with
// a body it never declared), under a policy whose rules those bypasses would have dodged. Each is refused, naming
// the plugin, and nothing of it reaches the loopback tracker (a Linear-shaped GraphQL endpoint beside REST paths).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';
import { linearRequests, serveLinear } from '../fixtures/linear/linear-graphql-api.js';
import { SlyPlugin } from '../support/bypass-plugin.js';

const KEY = 'lin_api_slyBindingKey0123456789';

const POLICY = `version: 1
rules:
  - id: no-owned-titles
    effect: deny
    reason: Titles never claim an owner.
    match: { tools: [sly_rename_issue], args: { title: "Owned*" } }
  - id: no-security-team
    effect: deny
    reason: The security team's issues are not listed to agents.
    match: { args: { team: SEC } }
  - id: eng-1-is-kept
    effect: deny
    reason: ENG-1 is the release tracker.
    match: { args: { id: ENG-1 } }
  - id: no-graphql-mutations
    effect: deny
    reason: Agents read the tracker; they do not change it through GraphQL.
    match: { tools: ["sly_*_rest"], graphql: { operation: mutation } }
  - id: everything-else
    effect: allow
`;

describe('public API: the request a plugin sends is the one decided, its body and query included', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    const dir = mkdtempSync(join(tmpdir(), 'request-binding-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    kernel = await startTestKernel({ plugins: [SlyPlugin], env: { SLY_URL: mock.url, SLY_API_KEY: KEY, MCP_POLICY_FILE: join(dir, 'policy.yaml') } });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    serveLinear(mock, KEY);
    mock.on('PUT', '/issues/:id', (request) => ({ body: { id: request.params.id, ...(JSON.parse(request.body) as object) } }));
    mock.on('GET', '/issues', { body: [{ identifier: 'ENG-2', title: 'Slow dashboard query' }] });
    mock.on('GET', '/issues/:id', (request) => ({ body: { identifier: request.params.id, assignee: 'ada' } }));
    mock.on('POST', '/issues/:id/comments', (request) => ({ status: 201, body: { id: 'c-9', ...(JSON.parse(request.body) as object) } }));
  });

  const sent = (): string[] => mock.requests.map((r) => `${r.method} ${r.url}`);

  it("refuses the route's PUT sent with another body than the caller's, which the args rule would have refused", async () => {
    const result = await kernel.call('sly_rename_issue', { id: 'ENG-4', title: 'Upgrade the payment SDK' });
    expect(textOf(result)).to.equal(
      "Error: The sly plugin's sly_rename_issue sent PUT /issues/ENG-4, its route's method and path, with another body than the route the policy decided on; it was refused and nothing was sent. The route goes out as prepared (send ctx.route); a tool declares any other request, a second page or the write a read resolved, in `further` on its spec, with its body.\nCode: tool_failed",
    );
    expect(sent()).to.deep.equal([]);
    // The same title asked for by the caller is the policy's to refuse.
    const asked = await kernel.call('sly_rename_issue', { id: 'ENG-4', title: 'Owned by sly' });
    expect(textOf(asked)).to.contain('(rule no-owned-titles;').and.to.contain('Code: policy_denied');
  });

  it("refuses the route's GET sent with another query", async () => {
    const result = await kernel.call('sly_list_issues', { team: 'ENG' });
    expect(textOf(result)).to.match(
      /^Error: The sly plugin's sly_list_issues sent GET \/issues, its route's method and path, with another query than the route the policy decided on; it was refused and nothing was sent\./,
    );
    expect(textOf(result)).to.contain('Code: tool_failed');
    expect(sent()).to.deep.equal([]);
  });

  it("refuses the route's GraphQL operation sent with other variables", async () => {
    const result = await kernel.call('sly_delete_issue', { id: 'ENG-5' });
    expect(textOf(result)).to.equal(
      "Error: The sly plugin's sly_delete_issue sent POST /graphql, its GraphQL endpoint, with its route's operation (mutation DeleteIssue { issueDelete }) and other variables than the route the policy decided on; the route goes out as prepared (send ctx.route); it was refused and nothing was sent.\nCode: tool_failed",
    );
    expect(linearRequests(mock)).to.deep.equal([]);
  });

  it('refuses a mutation a REST tool POSTs to the GraphQL endpoint in place of its routed query', async () => {
    const result = await kernel.call('sly_issues_over_rest', { id: 'ENG-3' });
    expect(textOf(result)).to.match(/^Error: The sly plugin's sly_issues_over_rest sent POST \/graphql, its route's method and path, with another body/);
    expect(textOf(result)).to.contain('Code: tool_failed');
    expect(linearRequests(mock)).to.deep.equal([]);
  });

  it('reads a REST route to the GraphQL endpoint as the operation it carries: a rule on mutations refuses it, a query goes', async () => {
    const mutation = await kernel.call('sly_graphql_rest', {
      query: 'mutation DeleteIssue($id: String!) { issueDelete(id: $id) { success } }',
      variables: { id: 'ENG-3' },
    });
    expect(textOf(mutation)).to.match(
      /^Error: The policy refused sly_graphql_rest \(POST \/graphql: mutation DeleteIssue \{ issueDelete \}\) for local: Agents read the tracker; they do not change it through GraphQL\. \(rule no-graphql-mutations;/,
    );
    expect(linearRequests(mock)).to.deep.equal([]);
    const query = await kernel.call('sly_graphql_rest', { query: '# the first one\n{ issues(first: 1) { nodes { identifier } } }' });
    expect(query.isError, textOf(query)).to.equal(undefined);
    expect(linearRequests(mock).map((r) => r.query)).to.deep.equal(['{\n  issues(first: 1) {\n    nodes {\n      identifier\n    }\n  }\n}']);
  });

  it('refuses a further request sent with a body its declaration does not carry, after the route went out', async () => {
    const result = await kernel.call('sly_annotate', { id: 'ENG-2' });
    expect(textOf(result)).to.equal(
      "Error: The sly plugin's sly_annotate sent POST /issues/ENG-2/comments with a body, which no further request it declares carries (it declares POST /issues/*/comments without a body); it was refused and nothing was sent. A further request declares its body in `body`, with FROM_UPSTREAM where a value comes from an earlier answer.\nCode: tool_failed",
    );
    expect(sent()).to.deep.equal(['GET /issues/ENG-2']);
  });

  it('sends a further request whose body is the one it declares, with the value it read from the upstream', async () => {
    const result = await kernel.call('sly_comment', { id: 'ENG-2', text: 'Reproduced on Safari 17' });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(sent()).to.deep.equal(['GET /issues/ENG-2', 'POST /issues/ENG-2/comments']);
    expect(JSON.parse(mock.requests[1]!.body)).to.deep.equal({ text: 'Reproduced on Safari 17', author: 'ada' });
  });
});
