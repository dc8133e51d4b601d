import { expect } from 'chai';
import {
  inject,
  PagedEnvelope,
  Plugin,
  ReadEnvelope,
  TOKENS,
  Tool,
  transportLimitsFrom,
  Type,
  UpstreamClient,
  type Settings,
  type ToolContext,
  type ToolOutput,
} from 'mcp-devtools/plugin';
import { MockUpstream, startTestKernel, textOf, type TestKernel } from 'mcp-devtools/testing';

// The compile-time half of the typed plugin API: this file is compiled by tsc with the rest of the tests, and
// each `@ts-expect-error` below marks a plugin mistake the compiler must refuse. If one stops being an error,
// the directive itself becomes an error ("Unused '@ts-expect-error' directive") and the build fails.

const ListArgs = Type.Object(
  { project: Type.String({ minLength: 1 }), page: Type.Integer({ minimum: 1, default: 1 }), label: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export const OtherArgs = Type.Object({ issue: Type.Integer() }, { additionalProperties: false });
const NoArgs = Type.Object({}, { additionalProperties: false });

const AcmeSettings = Type.Object({
  ACME_TYPED_URL: Type.String({ default: 'http://127.0.0.1:9' }),
  ACME_TYPED_PAGE_SIZE: Type.Integer({ minimum: 1, default: 20 }),
  ACME_TYPED_VERBOSE: Type.Boolean({ default: false }),
});

const list = {
  name: 'acme_typed_list',
  title: 'List',
  description: 'A paged list.',
  annotations: { readOnlyHint: true },
  input: ListArgs,
  envelope: PagedEnvelope,
  // `args` is inferred from `input`: no annotation, and a typo in a field name does not compile.
  route: (args: { project: string; page: number }) => ({
    method: 'GET' as const,
    path: `/projects/${encodeURIComponent(args.project)}/items`,
    query: { page: args.page },
  }),
};

@Plugin({ name: 'acme-typed', version: '1.0.0', settings: AcmeSettings })
class AcmeTypedPlugin {
  readonly upstream: UpstreamClient;
  readonly pageSize: number;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    const own = settings.of(AcmeSettings);
    this.pageSize = own.ACME_TYPED_PAGE_SIZE;
    // @ts-expect-error a number setting is not a string
    const wrong: string = own.ACME_TYPED_PAGE_SIZE;
    void wrong;
    // @ts-expect-error a setting the schema does not declare
    void own.ACME_TYPED_NOPE;
    this.upstream = new UpstreamClient({
      ...{ vendor: 'acme', label: 'Acme', baseUrl: own.ACME_TYPED_URL, auth: () => ({}), missingCredentials: 'none', secretMaterial: () => '' },
      ...{ credentialLabel: 'none', environment: 'test' },
      ...transportLimitsFrom(settings),
    });
  }

  @Tool({
    name: 'acme_typed_list',
    title: 'List',
    description: 'A paged list.',
    annotations: { readOnlyHint: true },
    input: ListArgs,
    envelope: PagedEnvelope,
    route: (args) => ({ method: 'GET', path: `/projects/${encodeURIComponent(args.project)}/items`, query: { page: args.page, label: args.label } }),
  })
  async list(ctx: ToolContext<typeof ListArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route); // no `ctx.route!`: the spec declares a route
    // @ts-expect-error an argument the input schema does not declare
    void ctx.args.nope;
    const page: number = ctx.args.page;
    return { value: { project: ctx.args.project, page, items: response.body }, meta: { nextPage: page + 1 } };
  }

  @Tool({ name: 'acme_typed_echo', title: 'Echo', description: 'No route.', annotations: { readOnlyHint: true }, input: ListArgs })
  async echo(ctx: ToolContext<typeof ListArgs, undefined>): Promise<ToolOutput> {
    return { value: { route: ctx.route ?? null, args: ctx.args } };
  }
}

/** Each class holds one mistake, refused where `@Tool` meets the handler. None of them is ever started. */
export class Mistakes {
  // @ts-expect-error the route's arguments are the input schema's: `args.nope` does not exist
  @Tool({ ...list, route: (args) => ({ method: 'GET', path: args.nope }) })
  async routeTypo(ctx: ToolContext<typeof ListArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    return { value: ctx.args, meta: { nextPage: null } };
  }

  // @ts-expect-error the handler reads the arguments of another schema
  @Tool(list)
  async otherArgs(ctx: ToolContext<typeof OtherArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    return { value: ctx.args.issue, meta: { nextPage: null } };
  }

  // @ts-expect-error the handler expects `ctx.route`, but the spec declares no route
  @Tool({ name: 'x', title: 'x', description: 'x', annotations: { readOnlyHint: true }, input: NoArgs })
  async routeWithoutRoute(ctx: ToolContext<typeof NoArgs>): Promise<ToolOutput> {
    return { value: ctx.route.path };
  }

  // @ts-expect-error an untyped output under PagedEnvelope: its meta could be anything
  @Tool(list)
  async untypedOutput(): Promise<ToolOutput> {
    return { value: 1, meta: { nextPage: 'cursor-abc' } };
  }

  @Tool(list)
  async metaOfAnotherEnvelope(): Promise<ToolOutput<typeof PagedEnvelope>> {
    // @ts-expect-error nextPage is a page number or null, not a cursor
    return { value: 1, meta: { nextPage: 'cursor-abc' } };
  }

  @Tool(list)
  async metaForgotten(): Promise<ToolOutput<typeof PagedEnvelope>> {
    // @ts-expect-error PagedEnvelope needs nextPage beside the value
    return { value: 1 };
  }

  @Tool({ ...list, envelope: ReadEnvelope })
  async metaWhereNoneFits(ctx: ToolContext<typeof ListArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    // @ts-expect-error ReadEnvelope is {data} alone: there is no meta to give
    return { value: ctx.args, meta: { nextPage: 2 } };
  }

  // @ts-expect-error the handler promises a ReadEnvelope output for a PagedEnvelope tool
  @Tool(list)
  async wrongEnvelope(ctx: ToolContext<typeof ListArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: ctx.args };
  }
}

// The run-time half: the same API, used as a plugin author would, through the public entry points.
describe('typed plugin API (mcp-devtools/plugin)', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', '/projects/:project/items', { status: 200, body: [{ id: 1 }] });
    kernel = await startTestKernel({
      plugins: [AcmeTypedPlugin],
      env: { ACME_TYPED_URL: mock.url, ACME_TYPED_PAGE_SIZE: '50', MCP_STRUCTURED_OUTPUT: 'true' },
    });
  });

  after(async () => {
    await kernel.close();
    await mock.close();
  });

  it('hands the handler validated arguments with their defaults, and the route it computed from them', async () => {
    const result = await kernel.call('acme_typed_list', { project: 'a/b', label: 'bug' });
    expect(result.isError ?? false, textOf(result)).to.equal(false);
    expect(mock.requests[0]?.url).to.equal('/projects/a%2Fb/items?page=1&label=bug');
    expect(result.structuredContent).to.deep.equal({ data: { project: 'a/b', page: 1, items: [{ id: 1 }] }, nextPage: 2 });
  });

  it('gives a tool without a route no route', async () => {
    const result = await kernel.call('acme_typed_echo', { project: 'p', page: 3 });
    expect(textOf(result)).to.include('route: null');
  });

  it('reads settings typed by their schema: a number from the environment arrives as a number', async () => {
    const settings = kernel.kernel.settings.forOwner('acme-typed');
    const own = settings.of(AcmeSettings);
    expect(own).to.deep.equal({ ACME_TYPED_URL: mock.url, ACME_TYPED_PAGE_SIZE: 50, ACME_TYPED_VERBOSE: false });
  });

  it('refuses to read a setting no loaded plugin declares, naming it', () => {
    const Undeclared = Type.Object({ ACME_TYPED_MISSING: Type.String() });
    expect(() => kernel.kernel.settings.of(Undeclared)).to.throw('setting ACME_TYPED_MISSING is not declared by any loaded plugin');
  });

  it('refuses to read a setting with a schema of another type, without showing its value', () => {
    const AsString = Type.Object({ ACME_TYPED_PAGE_SIZE: Type.String() });
    expect(() => kernel.kernel.settings.of(AsString)).to.throw(/^setting ACME_TYPED_PAGE_SIZE does not match the schema it is read with/);
  });
});
