import { expect } from 'chai';
import {
  defineTool,
  inject,
  PagedEnvelope,
  Plugin,
  ReadEnvelope,
  TOKENS,
  Tool,
  transportLimitsFrom,
  Type,
  UpstreamClient,
  type PluginSpec,
  type Settings,
  type ToolContext,
  type ToolOutput,
} from 'mcp-devtools/plugin';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';

// A tool as one value (`defineTool`, listed in `@Plugin({ tools })`), through the public entry points. The
// compile-time half: each `@ts-expect-error` marks a mistake the compiler must refuse, as typed-plugin-api.test.ts
// does for `@Tool`; if one stops being an error, the unused directive fails the build.

const ListArgs = Type.Object(
  { project: Type.String({ minLength: 1 }), page: Type.Integer({ minimum: 1, default: 1 }), label: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export const OtherArgs = Type.Object({ issue: Type.Integer() }, { additionalProperties: false });
const NoArgs = Type.Object({}, { additionalProperties: false });
const READ = { readOnlyHint: true };

const OneValueSettings = Type.Object({ ACME_ONE_URL: Type.String({ default: 'http://127.0.0.1:9' }), ACME_ONE_LABEL: Type.String({ default: 'acme' }) });

/** What the tools below use of their plugin: what they annotate `deps` with. */
interface AcmeDeps {
  readonly upstream: UpstreamClient;
  readonly label: string;
}

const list = defineTool({
  name: 'acme_one_list',
  title: 'List',
  description: 'A paged list.',
  annotations: READ,
  input: ListArgs,
  envelope: PagedEnvelope,
  route: (args) => ({ method: 'GET', path: `/projects/${encodeURIComponent(args.project)}/items`, query: { page: args.page, label: args.label } }),
  handler: async (ctx, acme: AcmeDeps) => {
    const response = await acme.upstream.send(ctx, ctx.route); // no `ctx.route!`: the tool declares a route
    const page: number = ctx.args.page;
    return { value: { by: acme.label, project: ctx.args.project, items: response.body }, meta: { nextPage: page + 1 } };
  },
});

const echo = defineTool({
  name: 'acme_one_echo',
  title: 'Echo',
  description: 'No route.',
  annotations: READ,
  input: ListArgs,
  handler: async (ctx) => ({ value: { route: ctx.route ?? null, args: ctx.args } }),
});

const ask = defineTool({
  name: 'acme_one_graphql',
  title: 'Ask',
  description: 'A GraphQL query.',
  annotations: READ,
  input: ListArgs,
  envelope: ReadEnvelope,
  graphql: { documents: ['query Items($project: String!) { items(project: $project) { id } }'] },
  route: (args) => ({ graphql: { document: 'query Items($project: String!) { items(project: $project) { id } }', variables: { project: args.project } } }),
  handler: async (ctx) => {
    const document: string = ctx.route.graphql.document; // a GraphQL route: the document, no method or path
    return { value: { document, variables: ctx.route.graphql.variables } };
  },
});

@Plugin({ name: 'acme-one', version: '1.0.0', settings: OneValueSettings, tools: [list, echo, ask] })
class AcmeOnePlugin implements AcmeDeps {
  readonly upstream: UpstreamClient;
  readonly label: string;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    const own = settings.of(OneValueSettings);
    this.label = own.ACME_ONE_LABEL;
    this.upstream = new UpstreamClient({
      ...{ vendor: 'acme', label: 'Acme', baseUrl: own.ACME_ONE_URL, auth: () => ({}), missingCredentials: 'none', secretMaterial: () => '' },
      ...{ credentialLabel: 'none', environment: 'test' },
      ...transportLimitsFrom(settings),
    });
  }
}

/** Mistakes, each refused where `defineTool` or `@Plugin` meets it. None of them is ever served. */
export const MISTAKES = [
  defineTool({
    ...{ name: 'x', title: 'x', description: 'x', annotations: READ, input: ListArgs },
    // @ts-expect-error the route's arguments are the input schema's: `args.nope` does not exist
    route: (args) => ({ method: 'GET', path: args.nope }),
    handler: async () => ({ value: 1 }),
  }),
  defineTool({
    ...{ name: 'x', title: 'x', description: 'x', annotations: READ, input: ListArgs },
    route: (args) => ({ method: 'GET', path: `/${args.project}` }),
    // @ts-expect-error the handler reads the arguments of another schema
    handler: async (ctx: ToolContext<typeof OtherArgs>) => ({ value: ctx.args.issue }),
  }),
  defineTool({
    ...{ name: 'x', title: 'x', description: 'x', annotations: READ, input: NoArgs },
    // @ts-expect-error the handler expects `ctx.route`, but the tool declares no route
    handler: async (ctx) => ({ value: ctx.route.path }),
  }),
  defineTool({
    ...{ name: 'x', title: 'x', description: 'x', annotations: READ, input: ListArgs, envelope: PagedEnvelope },
    route: (args) => ({ method: 'GET', path: `/${args.project}` }),
    // @ts-expect-error PagedEnvelope needs nextPage beside the value
    handler: async () => ({ value: 1 }),
  }),
  defineTool({
    ...{ name: 'x', title: 'x', description: 'x', annotations: READ, input: ListArgs, envelope: PagedEnvelope },
    route: (args) => ({ method: 'GET', path: `/${args.project}` }),
    // @ts-expect-error nextPage is a page number or null, not a cursor
    handler: async (): Promise<ToolOutput<typeof PagedEnvelope>> => ({ value: 1, meta: { nextPage: 'cursor-abc' } }),
  }),
  // @ts-expect-error a GraphQL route without `graphql`, which says what documents it may send
  defineTool({
    ...{ name: 'x', title: 'x', description: 'x', annotations: READ, input: ListArgs },
    route: () => ({ graphql: { document: 'query { viewer { id } }' } }),
    handler: async () => ({ value: 1 }),
  }),
];

/** A spec typed as a plain PluginSpec, as code written before `tools` types it, still fits any class. */
const PLAIN: PluginSpec = { name: 'acme-plain', version: '1.0.0' };
@Plugin(PLAIN)
export class PlainSpecPlugin {
  readonly anything = 1;
}

// @ts-expect-error the class lacks `label`, which a tool it lists takes from its deps
@Plugin({ name: 'acme-lacking', version: '1.0.0', tools: [list] })
export class LackingPlugin {
  readonly upstream = undefined as unknown as UpstreamClient;
}

/** Both forms in one plugin: the values of `tools` are served first, then the decorated methods. */
const mixedValue = defineTool({
  ...{ name: 'acme_mixed_value', title: 'Value', description: 'A tool value.', annotations: READ, input: NoArgs },
  handler: async () => ({ value: 'from the value' }),
});

@Plugin({ name: 'acme-mixed', version: '1.0.0', tools: [mixedValue] })
class MixedPlugin {
  @Tool({ name: 'acme_mixed_method', title: 'Method', description: 'A decorated method.', annotations: READ, input: NoArgs })
  async method(): Promise<ToolOutput> {
    return { value: 'from the method' };
  }
}

@Plugin({ name: 'acme-not-a-tool', version: '1.0.0', tools: [echo, { name: 'acme_spec_only' } as never] })
class NotAToolPlugin {}

@Plugin({ name: 'acme-no-handler', version: '1.0.0', tools: [{ spec: { ...echo.spec, name: 'acme_no_handler' } } as never] })
class NoHandlerPlugin {}

async function startupError(plugins: Array<new () => object>): Promise<string> {
  const kernel = await startTestKernel({ plugins }).catch((error: Error) => error);
  if (kernel instanceof Error) return kernel.message;
  await kernel.close();
  throw new Error('expected start-up to fail');
}

// The run-time half: served as a plugin author would serve it.
describe('tools as values (defineTool, mcp-devtools/plugin)', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', '/projects/:project/items', { status: 200, body: [{ id: 1 }] });
    kernel = await startTestKernel({
      plugins: [AcmeOnePlugin],
      env: { ACME_ONE_URL: mock.url, ACME_ONE_LABEL: 'from settings', MCP_STRUCTURED_OUTPUT: 'true' },
    });
  });

  after(async () => {
    await kernel.close();
    await mock.close();
  });

  it('serves the tools the plugin lists, in its order, as tools/list shows a decorated tool', async () => {
    const client = await kernel.connect();
    const tools = (await client.listTools()).tools.filter((t) => t.name.startsWith('acme_one_'));
    expect(tools.map((t) => t.name)).to.deep.equal(['acme_one_list', 'acme_one_echo', 'acme_one_graphql']);
    expect(tools[0]!.inputSchema.required).to.deep.equal(['project', 'page']);
    // A 2025-06-18 or later client reads the top-level title, and is not sent it again in annotations.
    expect(tools[0]!.title).to.equal('List');
    expect(tools[0]!.annotations).to.deep.equal({ readOnlyHint: true });
  });

  it('hands the handler validated arguments, the route computed from them, and the plugin as its deps', async () => {
    const result = await kernel.call('acme_one_list', { project: 'a/b', label: 'bug' });
    expect(result.isError ?? false, textOf(result)).to.equal(false);
    expect(mock.requests.at(-1)?.url).to.equal('/projects/a%2Fb/items?page=1&label=bug');
    expect(result.structuredContent).to.deep.equal({ data: { by: 'from settings', project: 'a/b', items: [{ id: 1 }] }, nextPage: 2 });
  });

  it('gives a tool without a route no route, and a GraphQL tool its operation', async () => {
    expect(textOf(await kernel.call('acme_one_echo', { project: 'p', page: 3 }))).to.include('route: null');
    const asked = await kernel.call('acme_one_graphql', { project: 'p' });
    expect(asked.structuredContent).to.deep.include({
      data: { document: 'query Items($project: String!) { items(project: $project) { id } }', variables: { project: 'p' } },
    });
  });

  it('serves the values and the @Tool methods of one plugin together, the values first', async () => {
    const mixed = await startTestKernel({ plugins: [MixedPlugin] });
    try {
      const client = await mixed.connect();
      const names = (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('acme_mixed_'));
      expect(names).to.deep.equal(['acme_mixed_value', 'acme_mixed_method']);
      expect(textOf(await mixed.call('acme_mixed_value', {}))).to.equal('from the value');
      expect(textOf(await mixed.call('acme_mixed_method', {}))).to.equal('from the method');
    } finally {
      await mixed.close();
    }
  });

  it('refuses at start-up an entry of tools that is not a defineTool value, naming the plugin', async () => {
    expect(await startupError([NotAToolPlugin])).to.equal(
      'Plugin "acme-not-a-tool": tools[1] is not a tool. Make each with defineTool({ name, title, description, annotations, input, route, handler }).',
    );
  });

  it('refuses at start-up a tool without a handler, naming it', async () => {
    expect(await startupError([NoHandlerPlugin])).to.equal(
      'Tool "acme_no_handler" of plugin "acme-no-handler": its handler is not a function. Give defineTool a handler: async (ctx, deps) => ({ value }).',
    );
  });
});
