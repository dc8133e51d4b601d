import { expect } from 'chai';
import { parse, print } from 'graphql';
import { graphqlRequests, serveGithubGraphql } from '../../fixtures/github/github-graphql-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_graphqlTestToken0123456789';
const env = (url: string, more: Record<string, string> = {}): Record<string, string> => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, ...more });

const OPEN_ISSUES = `query OpenIssues($first: Int!, $after: String) {
  repository(owner: "octo-org", name: "octo-repo") {
    issues(first: $first, after: $after, states: [OPEN]) { totalCount nodes { number title } pageInfo { hasNextPage endCursor } }
  }
}`;

/** A document `levels` fields deep (a viewer inside each viewer: GitHub's schema refuses it, a depth count need not know). */
const deep = (levels: number): string => `query { ${'a: viewer { '.repeat(levels - 1)}login${' }'.repeat(levels - 1)} }`;

describe('github_graphql (GitHub GraphQL API, in-process)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => env(url) });

  it("POSTs the document, variables and operation name to /graphql as GitHub's GraphQL API reads them, and answers {data}", async () => {
    serveGithubGraphql(t.mock, TOKEN);
    const result = await t.kernel.call('github_graphql', { query: OPEN_ISSUES, variables: { first: 2 }, operationName: 'OpenIssues', outputFormat: 'json' });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(JSON.parse(textOf(result))).to.deep.equal({
      data: {
        repository: {
          issues: {
            totalCount: 5,
            nodes: [
              { number: 1347, title: 'Found a bug' },
              { number: 1348, title: 'Deploy flakes on the arm64 runner' },
            ],
            pageInfo: { hasNextPage: true, endCursor: Buffer.from('cursor:v2:1').toString('base64') },
          },
        },
      },
    });
    const [sent] = t.mock.requests;
    expect(sent).to.deep.include({ method: 'POST', path: '/graphql' });
    expect(sent!.headers).to.deep.include({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' });
    // The document goes out as printed from its syntax tree: GitHub parses what the guards and the policy read.
    expect(graphqlRequests(t.mock)).to.deep.equal([{ query: print(parse(OPEN_ISSUES)), variables: { first: 2 }, operationName: 'OpenIssues' }]);
  });

  it('pages a connection by pageInfo.endCursor, and projects with jq', async () => {
    serveGithubGraphql(t.mock, TOKEN);
    const titles: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await t.kernel.call('github_graphql', {
        query: OPEN_ISSUES,
        variables: { first: 2, ...(after === undefined ? {} : { after }) },
        jq: 'data.repository.issues.{titles: nodes[*].title, next: pageInfo.endCursor, more: pageInfo.hasNextPage}',
        outputFormat: 'json',
      });
      const { titles: got, next, more } = JSON.parse(textOf(result)) as { titles: string[]; next: string; more: boolean };
      titles.push(...got);
      if (!more) break;
      after = next;
    }
    expect(titles).to.deep.equal([
      'Found a bug',
      'Deploy flakes on the arm64 runner',
      'Docs: the install section names an old version',
      'Token printed in a job log',
      'Nightly build red since Tuesday',
    ]);
    expect(t.mock.requests).to.have.length(3);
  });

  it("returns a partial answer whole: what resolved, and GitHub's errors for what did not", async () => {
    serveGithubGraphql(t.mock, TOKEN);
    const query = 'query { viewer { login } repository(owner: "octo-org", name: "nope") { id } }';
    const result = await t.kernel.call('github_graphql', { query, outputFormat: 'json' });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(JSON.parse(textOf(result))).to.deep.equal({
      data: { viewer: { login: 'octocat' }, repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          message: "Could not resolve to a Repository with the name 'octo-org/nope'.",
          // Where GitHub found it in the document it was sent: the printed one (repository is its fifth line).
          locations: [{ line: 5, column: 3 }],
          path: ['repository'],
        },
      ],
    });
  });

  it('answers a document GitHub refuses outright (no data) with an error result that names each error', async () => {
    serveGithubGraphql(t.mock, TOKEN);
    const result = await t.kernel.call('github_graphql', { query: 'query { viewer { login nickname } }' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain(`GitHub answered the GraphQL query with an error and no data: Cannot query field "nickname" on type "User".`);
    expect(textOf(result)).to.contain('Code: upstream_graphql_error');
  });

  it('says what to fix for a token GitHub does not accept (401), never showing the token', async () => {
    serveGithubGraphql(t.mock, 'ghp_anotherToken');
    const result = await t.kernel.call('github_graphql', { query: 'query { viewer { login } }' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('401').and.to.contain('Bad credentials');
    expect(textOf(result)).not.to.contain(TOKEN);
  });

  it('refuses a mutation without sending anything, naming the setting that would allow it', async () => {
    const result = await t.kernel.call('github_graphql', {
      query: 'mutation { closeIssue(input: { issueId: "I_kwDOAbc1347" }) { issue { state } } }',
    });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain(
      'github_graphql sends queries only, and the document holds a mutation. Send a query; an operator allows mutations with GITHUB_GRAPHQL_MUTATIONS=true.',
    );
    expect(textOf(result)).to.contain('Code: invalid_graphql');
    expect(t.mock.requests).to.have.length(0);
  });

  it('refuses a mutation hidden beside the query that runs (operationName picks the query)', async () => {
    const query = 'query Viewer { viewer { login } } mutation Close { closeIssue(input: { issueId: "I_kwDOAbc1347" }) { issue { state } } }';
    const result = await t.kernel.call('github_graphql', { query, operationName: 'Viewer' });
    expect(textOf(result)).to.contain('the document holds a mutation');
    expect(t.mock.requests).to.have.length(0);
  });

  it('holds a document to depth 15 by default (GITHUB_GRAPHQL_MAX_DEPTH), fragments expanded', async () => {
    serveGithubGraphql(t.mock, TOKEN);
    // 15 levels reach GitHub (whose schema then refuses viewer inside viewer); 16 never leave.
    const ok = await t.kernel.call('github_graphql', { query: deep(15) });
    expect(textOf(ok)).to.contain(`GitHub answered the GraphQL query with an error and no data: Cannot query field "viewer" on type "User".`);
    const refused = await t.kernel.call('github_graphql', { query: deep(16) });
    expect(textOf(refused)).to.contain(
      'Invalid GraphQL for github_graphql: The GraphQL document nests fields deeper than 15 levels (GITHUB_GRAPHQL_MAX_DEPTH).',
    );
    // 14 levels in the operation, and the fragment's fields at the 15th and 16th.
    const viaFragment = await t.kernel.call('github_graphql', {
      query: `query { ${'a: viewer { '.repeat(14)}...Deeper${' }'.repeat(14)} } fragment Deeper on User { b: viewer { login } }`,
    });
    expect(textOf(viaFragment)).to.contain('deeper than 15 levels');
    expect(t.mock.requests).to.have.length(1);
  });

  it('refuses introspection and a document that does not parse, saying what is wrong', async () => {
    const introspection = await t.kernel.call('github_graphql', { query: 'query { __schema { types { name } } }' });
    expect(textOf(introspection)).to.contain('The GraphQL document asks for introspection (__schema); this tool does not allow it.');
    const broken = await t.kernel.call('github_graphql', { query: 'query { viewer { login }' });
    expect(textOf(broken)).to.contain('Invalid GraphQL for github_graphql: The GraphQL document does not parse: Syntax Error: Expected Name, found <EOF>.');
    const subscription = await t.kernel.call('github_graphql', { query: 'subscription { issueUpdated { id } }' });
    expect(textOf(subscription)).to.contain('subscriptions are not supported');
    expect(t.mock.requests).to.have.length(0);
  });

  it('refuses a document over GITHUB_GRAPHQL_MAX_BYTES (a 3 MB comment) before any request, and sends one with a comment without it', async () => {
    serveGithubGraphql(t.mock, TOKEN);
    const padded = await t.kernel.call('github_graphql', { query: `query { viewer { login } }\n#${'#'.repeat(3_000_000)}` });
    expect(textOf(padded)).to.contain(
      'Invalid GraphQL for github_graphql: The GraphQL document is 3000028 bytes, more than the 102400 a document may have (GITHUB_GRAPHQL_MAX_BYTES), comments and layout included; send a shorter one.',
    );
    expect(t.mock.requests).to.have.length(0);
    const commented = await t.kernel.call('github_graphql', {
      query: '# mutation { deleteRepository }\nquery Me { viewer { login } } # done',
      jq: 'data.viewer.login',
    });
    expect(textOf(commented)).to.equal('octocat');
    expect(graphqlRequests(t.mock)).to.deep.equal([{ query: 'query Me {\n  viewer {\n    login\n  }\n}', operationName: 'Me' }]);
  });

  it('refuses introspection hidden in an inline fragment, and a subscription beside the query operationName picks, sending nothing', async () => {
    const inline = await t.kernel.call('github_graphql', { query: '{ ... on Query { __schema { types { name } } } }' });
    expect(inline.isError).to.equal(true);
    expect(textOf(inline)).to.contain('introspection (__schema)');
    const beside = await t.kernel.call('github_graphql', {
      query: 'query Viewer { viewer { login } } subscription Watch { issueUpdated { id } }',
      operationName: 'Viewer',
    });
    expect(beside.isError).to.equal(true);
    expect(textOf(beside)).to.contain('subscription (Watch)');
    expect(t.mock.requests).to.have.length(0);
  });

  it('retries a query GitHub answered 502 (a read), as it retries a GET', async () => {
    let answered = 0;
    t.mock.on('POST', '/graphql', () =>
      ++answered === 1 ? { status: 502, body: { message: 'Server Error' } } : { body: { data: { viewer: { login: 'octocat' } } } },
    );
    const result = await t.kernel.call('github_graphql', { query: 'query { viewer { login } }', jq: 'data.viewer.login', outputFormat: 'json' });
    expect(textOf(result)).to.equal('"octocat"');
    expect(answered).to.equal(2);
  });

  it('is listed as a read, under the repos toolset', async () => {
    const client = await t.kernel.connect();
    const tool = (await client.listTools()).tools.find((x) => x.name === 'github_graphql')!;
    expect(tool.annotations).to.deep.include({ readOnlyHint: true });
    expect(tool.inputSchema.required).to.deep.equal(['query']);
  });
});

describe('github_graphql with mutations allowed and tighter limits (GITHUB_GRAPHQL_*)', () => {
  const t = useVendorKernel({
    plugins: ['github'],
    env: (url) => env(url, { GITHUB_GRAPHQL_MUTATIONS: 'true', GITHUB_GRAPHQL_MAX_FIELDS: '6', MCP_STRUCTURED_OUTPUT: 'true' }),
  });

  it('is listed as a write once mutations are allowed, with its {data} output schema', async () => {
    const client = await t.kernel.connect();
    const tool = (await client.listTools()).tools.find((x) => x.name === 'github_graphql')!;
    expect(tool.annotations).to.deep.include({ readOnlyHint: false, destructiveHint: true });
    expect(tool.outputSchema?.required).to.deep.equal(['data']);
  });

  it('sends a mutation once, never retrying it on a 502 (it may have been done)', async () => {
    let answered = 0;
    t.mock.on('POST', '/graphql', () => (++answered, { status: 502, body: { message: 'Server Error' } }));
    const query = 'mutation Close($id: ID!) { closeIssue(input: { issueId: $id }) { issue { number state } } }';
    const failed = await t.kernel.call('github_graphql', { query, variables: { id: 'I_kwDOAbc1349' } });
    expect(failed.isError).to.equal(true);
    expect(answered).to.equal(1);
    t.mock.reset();
    serveGithubGraphql(t.mock, TOKEN);
    const closed = await t.kernel.call('github_graphql', { query, variables: { id: 'I_kwDOAbc1349' } });
    // Structured: the envelope's data is GitHub's answer, whose own data holds the mutation's payload.
    expect(closed.structuredContent).to.deep.equal({ data: { data: { closeIssue: { issue: { number: 1349, state: 'CLOSED' } } } } });
  });

  it('counts every alias and every fragment spread against GITHUB_GRAPHQL_MAX_FIELDS', async () => {
    serveGithubGraphql(t.mock, TOKEN);
    const six = await t.kernel.call('github_graphql', { query: 'query { a: viewer { login name } b: viewer { login name } }', jq: 'data.b.login' });
    expect(six.structuredContent).to.deep.equal({ data: 'octocat' });
    const aliases = await t.kernel.call('github_graphql', {
      query: 'query { a: viewer { login } b: viewer { login } c: viewer { login } d: viewer { login } }',
    });
    expect(textOf(aliases)).to.contain('The GraphQL document asks for more than 6 fields (GITHUB_GRAPHQL_MAX_FIELDS; aliases and each fragment spread count).');
    const spreads = await t.kernel.call('github_graphql', {
      query: 'query { a: viewer { ...Who } b: viewer { ...Who } c: viewer { ...Who } } fragment Who on User { login }',
    });
    expect(textOf(spreads)).not.to.contain('more than 6 fields');
    const more = await t.kernel.call('github_graphql', {
      query: 'query { a: viewer { ...Who } b: viewer { ...Who } c: viewer { ...Who } } fragment Who on User { login name }',
    });
    expect(textOf(more)).to.contain('more than 6 fields');
    expect(t.mock.requests).to.have.length(2);
  });
});
