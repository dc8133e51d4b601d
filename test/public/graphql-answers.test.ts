// What a GraphQL API answers, read as an error or as data (issue 55, item 5), through the public kit with a
// plugin written as an outside author writes it. GitHub's GraphQL API (v4) answers 200 with `errors` beside
// `data` when part of an operation fails (`{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":
// ["repository"],...}]}`): that is an error naming the messages and paths, unless the tool declares that
// partial data is useful. The operation's name goes out as `operationName` when its document has one.
import { expect } from 'chai';
import {
  dataOf,
  defineTool,
  identityFrom,
  identitySettings,
  inject,
  Plugin,
  READ,
  ReadEnvelope,
  TOKENS,
  transportLimitsFrom,
  Type,
  UpstreamClient,
  type Settings,
} from 'mcp-devtools/plugin';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';

const TOKEN = 'ghp_graphqlAnswersTest0123456789abcdef';

const REPOSITORY = 'query Repository($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { nameWithOwner stargazerCount } }';
const TWO =
  'query Two($a: String!, $b: String!) { a: repository(owner: "acme", name: $a) { nameWithOwner } b: repository(owner: "acme", name: $b) { nameWithOwner } }';
const VIEWER = '{ viewer { login } }';

const RepoArgs = Type.Object({ owner: Type.String(), name: Type.String() }, { additionalProperties: false });
const TwoArgs = Type.Object({ a: Type.String(), b: Type.String() }, { additionalProperties: false });
const NoArgs = Type.Object({ login: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

interface HubDeps {
  readonly upstream: UpstreamClient;
}

const repository = defineTool({
  name: 'hub_repository',
  title: 'Repository',
  description: 'A repository by owner and name.',
  annotations: READ,
  input: RepoArgs,
  envelope: ReadEnvelope,
  graphql: { documents: [REPOSITORY] },
  route: (args) => ({ graphql: { document: REPOSITORY, variables: { owner: args.owner, name: args.name } } }),
  handler: async (ctx, hub: HubDeps) => ({ value: dataOf<{ repository: unknown }>((await hub.upstream.send(ctx, ctx.route)).body).repository }),
});

const two = defineTool({
  name: 'hub_two',
  title: 'Two repositories',
  description: 'Two repositories of acme; one that cannot be read is null, with the error beside it.',
  annotations: READ,
  input: TwoArgs,
  envelope: ReadEnvelope,
  graphql: { documents: [TWO], partialData: true },
  route: (args) => ({ graphql: { document: TWO, variables: { a: args.a, b: args.b } } }),
  handler: async (ctx, hub: HubDeps) => ({ value: (await hub.upstream.send(ctx, ctx.route)).body }),
});

const viewer = defineTool({
  name: 'hub_viewer',
  title: 'Viewer',
  description: 'Who the token belongs to.',
  annotations: READ,
  input: NoArgs,
  envelope: ReadEnvelope,
  graphql: { documents: [VIEWER] },
  route: () => ({ graphql: { document: VIEWER } }),
  handler: async (ctx, hub: HubDeps) => ({ value: dataOf((await hub.upstream.send(ctx, ctx.route)).body) }),
});

@Plugin({
  name: 'hub',
  version: '1.0.0',
  settings: Type.Object({ HUB_URL: Type.String({ default: 'http://127.0.0.1:9' }), ...identitySettings('HUB', 'hub') }),
  tools: [repository, two, viewer],
})
class HubPlugin implements HubDeps {
  readonly upstream: UpstreamClient;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.upstream = new UpstreamClient({
      vendor: 'hub',
      label: 'GitHub',
      baseUrl: settings.get<string>('HUB_URL'),
      baseUrlSetting: 'HUB_URL',
      auth: () => ({ authorization: `bearer ${TOKEN}` }),
      missingCredentials: 'unused',
      secretMaterial: () => TOKEN,
      ...identityFrom(settings, 'HUB'),
      ...transportLimitsFrom(settings),
    });
  }
}

/** GitHub's answer for a repository that does not exist, as its GraphQL API gives it (200, data with null, errors). */
const notFound = (name: string, path: string) => ({
  type: 'NOT_FOUND',
  path: [path],
  locations: [{ line: 1, column: 62 }],
  message: `Could not resolve to a Repository with the name 'acme/${name}'.`,
});

describe('public API: GraphQL answers with errors, and operationName', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;
  before(async () => {
    mock = await MockUpstream.start();
    kernel = await startTestKernel({ plugins: [HubPlugin], env: { HUB_URL: mock.url, MCP_STRUCTURED_OUTPUT: 'true' } });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  const sent = (): Array<Record<string, unknown>> => mock.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);

  it('a 200 with errors is an error result with each message and path, not data: null', async () => {
    mock.on('POST', '/graphql', () => ({ status: 200, body: { data: { repository: null }, errors: [notFound('nope', 'repository')] } }));
    const result = await kernel.call('hub_repository', { owner: 'acme', name: 'nope' });
    expect(result.isError).to.equal(true);
    expect(result.structuredContent).to.equal(undefined);
    const text = textOf(result);
    expect(text).to.contain('Code: upstream_graphql_error');
    expect(text).to.contain('GitHub answered the GraphQL query Repository with an error');
    expect(text).to.contain(`at repository: Could not resolve to a Repository with the name 'acme/nope'. (NOT_FOUND)`);
    expect(text).to.contain('graphql: { partialData: true }');
  });

  it('a 200 with data and no errors is the data (the control)', async () => {
    mock.on('POST', '/graphql', () => ({ status: 200, body: { data: { repository: { nameWithOwner: 'acme/api', stargazerCount: 7 } } } }));
    const result = await kernel.call('hub_repository', { owner: 'acme', name: 'api' });
    expect(result.isError).to.not.equal(true);
    expect(result.structuredContent).to.deep.equal({ data: { nameWithOwner: 'acme/api', stargazerCount: 7 } });
  });

  it('a tool that declares partialData gets the data and the errors, and shows both', async () => {
    mock.on('POST', '/graphql', () => ({
      status: 200,
      body: { data: { a: { nameWithOwner: 'acme/api' }, b: null }, errors: [notFound('gone', 'b')] },
    }));
    const result = await kernel.call('hub_two', { a: 'api', b: 'gone' });
    expect(result.isError).to.not.equal(true);
    expect(result.structuredContent).to.deep.equal({
      data: { data: { a: { nameWithOwner: 'acme/api' }, b: null }, errors: [notFound('gone', 'b')] },
    });
  });

  it('partialData does not make an answer without data a success: every field failed', async () => {
    mock.on('POST', '/graphql', () => ({ status: 200, body: { data: null, errors: [notFound('x', 'a'), notFound('y', 'b')] } }));
    const text = textOf(await kernel.call('hub_two', { a: 'x', b: 'y' }));
    expect(text).to.contain('Code: upstream_graphql_error');
    expect(text).to.contain('GitHub answered the GraphQL query Two with 2 errors and no data');
    expect(text).to.contain("at a: Could not resolve to a Repository with the name 'acme/x'.");
    expect(text).to.contain("at b: Could not resolve to a Repository with the name 'acme/y'.");
  });

  it('errors without a path or a message are still named, and a long list is cut', async () => {
    const errors = Array.from({ length: 12 }, (_, i) => (i === 0 ? { extensions: { code: 'RATE_LIMITED' } } : { message: `problem ${i}` }));
    mock.on('POST', '/graphql', () => ({ status: 200, body: { errors } }));
    const text = textOf(await kernel.call('hub_viewer', {}));
    expect(text).to.contain('with 12 errors and no data');
    expect(text).to.contain('(no message) (RATE_LIMITED)');
    expect(text).to.contain('problem 4');
    expect(text).to.contain('and 7 more');
    expect(text).not.to.contain('problem 11');
  });

  it('sends operationName when the document names its operation, and none for an anonymous one', async () => {
    mock.on('POST', '/graphql', () => ({ status: 200, body: { data: { repository: null, viewer: { login: 'octocat' } } } }));
    await kernel.call('hub_repository', { owner: 'acme', name: 'api' });
    await kernel.call('hub_viewer', {});
    const [named, anonymous] = sent();
    expect(named).to.include({ operationName: 'Repository' });
    expect(anonymous).not.to.have.property('operationName');
  });

  it('dataOf gives the data of an answer; an answer without data is an error saying so', async () => {
    mock.on('POST', '/graphql', () => ({ status: 200, body: { data: { viewer: { login: 'octocat' } } } }));
    expect((await kernel.call('hub_viewer', {})).structuredContent).to.deep.equal({ data: { viewer: { login: 'octocat' } } });
    mock.reset();
    mock.on('POST', '/graphql', () => ({ status: 200, body: {} }));
    const text = textOf(await kernel.call('hub_viewer', {}));
    expect(text).to.contain('Code: upstream_graphql_error');
    expect(text).to.contain('The GraphQL answer holds no data');
  });
});
