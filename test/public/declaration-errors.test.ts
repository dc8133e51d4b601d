// Malformed declarations, one by one, written only with the public API as an outside author would: each fails
// start-up with a StartupError that names the plugin (and the tool) and says what to change; none is a raw
// TypeError, and none is discovered at call time.
import { expect } from 'chai';
import { CursorEnvelope, Plugin, ReadEnvelope, renderingArgs, Tool, Type, type ToolOutput } from 'mcp-devtools/plugin';
import { startTestKernel, type PluginClass } from 'mcp-devtools/testing';

const NoArgs = Type.Object({}, { additionalProperties: false });
const READ = { readOnlyHint: true };
const out = (): Promise<ToolOutput> => Promise.resolve({ value: 'unreachable' });

async function startupError(plugins: readonly PluginClass[], env: Record<string, string> = {}): Promise<Error> {
  try {
    const kernel = await startTestKernel({ plugins, env });
    await kernel.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the kernel started');
}

@Plugin({ name: 'acme-settings', version: '1.0.0', settings: Type.String() as never })
class StringSettings {}

@Plugin({ name: 'acme-region', version: '1.0.0', settings: Type.Object({ ACME_REGION: Type.String({ description: 'Region of the ACME API.' }) }) })
class MissingSetting {}

@Plugin({ name: 'acme-optional', version: '1.0.0', settings: Type.Object({ ACME_ZONE: Type.Optional(Type.String()) }) })
class OptionalSetting {}

@Plugin({ name: 'acme-version', version: '' })
class NoVersion {}

@Plugin({ name: 'acme-title', version: '1.0.0' })
class EmptyTitle {
  @Tool({ name: 'acme_untitled', title: ' ', description: 'Reads a thing.', annotations: READ, input: NoArgs })
  run(): Promise<ToolOutput> {
    return out();
  }
}

@Plugin({ name: 'acme-description', version: '1.0.0' })
class EmptyDescription {
  @Tool({ name: 'acme_silent', title: 'Silent', description: '', annotations: READ, input: NoArgs })
  run(): Promise<ToolOutput> {
    return out();
  }
}

@Plugin({ name: 'acme-annotations', version: '1.0.0' })
class NoAnnotations {
  @Tool({ name: 'acme_bare', title: 'Bare', description: 'Reads a thing.', annotations: undefined as never, input: NoArgs })
  run(): Promise<ToolOutput> {
    return out();
  }
}

@Plugin({ name: 'acme-route', version: '1.0.0' })
class RouteNotAFunction {
  @Tool({
    name: 'acme_routed',
    title: 'Routed',
    description: 'Reads a thing.',
    annotations: READ,
    input: NoArgs,
    route: { method: 'GET', path: '/x' } as never,
  })
  run(): Promise<ToolOutput> {
    return out();
  }
}

@Plugin({ name: 'acme-further', version: '1.0.0' })
class RelativeFurther {
  @Tool({
    name: 'acme_pages',
    title: 'Pages',
    description: 'Reads pages.',
    annotations: READ,
    input: NoArgs,
    route: () => ({ method: 'GET', path: '/pages' }),
    further: [{ method: 'GET', path: 'pages/*' }],
  })
  run(): Promise<ToolOutput> {
    return out();
  }
}

const TypedData = Type.Object(
  { data: Type.Array(Type.Object({ id: Type.Integer() })), nextCursor: CursorEnvelope.properties.nextCursor },
  { additionalProperties: false },
);

@Plugin({ name: 'acme-typed', version: '1.0.0' })
class TypedDataUnderJq {
  @Tool({
    name: 'acme_typed',
    title: 'Typed',
    description: 'Lists things.',
    annotations: READ,
    input: Type.Object({ ...renderingArgs }, { additionalProperties: false }),
    envelope: TypedData,
  })
  run(): Promise<ToolOutput<typeof TypedData>> {
    return Promise.resolve({ value: [], meta: { nextCursor: null } });
  }
}

const CREATE = 'mutation CreateIssue($title: String!) { issueCreate(input: { title: $title }) { issue { id } } }';

@Plugin({ name: 'acme-graphql-liar', version: '1.0.0' })
class ReadOnlyMutation {
  @Tool({
    name: 'acme_create',
    title: 'Create',
    description: 'Creates an issue.',
    annotations: READ,
    input: NoArgs,
    envelope: ReadEnvelope,
    graphql: { documents: [CREATE] },
    route: () => ({ graphql: { document: CREATE, variables: { title: 'x' } } }),
  })
  run(): Promise<ToolOutput<typeof ReadEnvelope>> {
    return Promise.resolve({ value: {} });
  }
}

@Plugin({ name: 'acme-graphql-subscription', version: '1.0.0' })
class Subscription {
  @Tool({
    name: 'acme_watch',
    title: 'Watch',
    description: 'Watches issues.',
    annotations: READ,
    input: NoArgs,
    graphql: { documents: ['subscription Watch { issueUpdated { id } }'] },
    route: () => ({ graphql: { document: 'subscription Watch { issueUpdated { id } }' } }),
  })
  run(): Promise<ToolOutput> {
    return out();
  }
}

@Plugin({ name: 'acme-graphql-syntax', version: '1.0.0' })
class BrokenDocument {
  @Tool({
    name: 'acme_broken',
    title: 'Broken',
    description: 'Reads issues.',
    annotations: READ,
    input: NoArgs,
    graphql: { documents: ['query Issues { issues { nodes { id }'] },
    route: () => ({ graphql: { document: 'query Issues { issues { nodes { id }' } }),
  })
  run(): Promise<ToolOutput> {
    return out();
  }
}

@Plugin({ name: 'acme-graphql-limits', version: '1.0.0' })
class BadLimits {
  @Tool({
    name: 'acme_graphql',
    title: 'GraphQL',
    description: 'Runs a query.',
    annotations: READ,
    input: Type.Object({ query: Type.String() }),
    graphql: { limits: { maxDepth: 0, maxFields: 100 } },
    route: (args) => ({ graphql: { document: args.query } }),
  })
  run(): Promise<ToolOutput> {
    return out();
  }
}

describe('public API: each malformed declaration fails start-up, naming the plugin and what to change', () => {
  const cases: Array<{ what: string; plugins: PluginClass[]; message: string | RegExp }> = [
    {
      what: 'settings that are not a TypeBox object (Type.String())',
      plugins: [StringSettings],
      message:
        'Plugin "acme-settings": its settings must be a TypeBox object of settings, such as Type.Object({ ACME_TOKEN: secret(Type.String({ default: \'\' })) }); it is a string schema.',
    },
    {
      what: 'a required setting that nothing sets and that has no default',
      plugins: [MissingSetting],
      message:
        'Setting ACME_REGION of plugin "acme-region" (Region of the ACME API.) is not set and has no default: set it (in the environment, ./.env, the "acme-region" section of ~/.mcp/configs.json or the config file), or give it a default or make it Type.Optional in the plugin\'s settings.',
    },
    { what: 'an empty version', plugins: [NoVersion], message: 'Plugin "acme-version" has no version in @Plugin: give one, such as version: "1.0.0".' },
    {
      what: 'an empty title',
      plugins: [EmptyTitle],
      message: 'Tool "acme_untitled" of plugin "acme-title": its title is empty. Give it a short title for people, such as "List pipelines".',
    },
    {
      what: 'an empty description',
      plugins: [EmptyDescription],
      message:
        'Tool "acme_silent" of plugin "acme-description": its description is empty. Say what the tool does and what it returns: the model reads it to choose the tool.',
    },
    {
      what: 'no annotations',
      plugins: [NoAnnotations],
      message:
        'Tool "acme_bare" of plugin "acme-annotations": annotations.readOnlyHint must be true or false (annotations: { readOnlyHint: true } for a tool that only reads).',
    },
    {
      what: 'a route that is not a function',
      plugins: [RouteNotAFunction],
      message:
        'Tool "acme_routed" of plugin "acme-route": its route must be a function of the arguments, such as route: (args) => ({ method: \'GET\', path: `/things/${args.id}` }).',
    },
    {
      what: 'a further route whose path is not a path',
      plugins: [RelativeFurther],
      message: 'Tool "acme_pages" of plugin "acme-further": its further[0].path must be a path that starts with "/".',
    },
    {
      what: 'an envelope that types data on a tool that takes jq',
      plugins: [TypedDataUnderJq],
      message:
        'Tool "acme_typed" of plugin "acme-typed": its envelope gives data a type, but the tool takes jq, which may project data to any JSON value. Declare data as EnvelopeData (untyped), as the envelopes of mcp-devtools/plugin do, or leave jq out of its arguments.',
    },
    {
      what: 'a read-only GraphQL tool whose document is a mutation',
      plugins: [ReadOnlyMutation],
      message:
        'Tool "acme_create" of plugin "acme-graphql-liar": it is annotated readOnlyHint: true, but its document CreateIssue is a mutation (issueCreate). A read-only tool sends queries only: annotate it readOnlyHint: false (with destructiveHint as fits), or declare only queries.',
    },
    {
      what: 'a GraphQL subscription',
      plugins: [Subscription],
      message:
        'Tool "acme_watch" of plugin "acme-graphql-subscription": its graphql.documents[0] is refused: The GraphQL document holds a subscription (Watch); subscriptions are not supported: send a query or a mutation.',
    },
    {
      what: 'a GraphQL document that does not parse',
      plugins: [BrokenDocument],
      message:
        /^Tool "acme_broken" of plugin "acme-graphql-syntax": its graphql.documents\[0\] is refused: The GraphQL document does not parse: Syntax Error: Expected Name, found <EOF>\. \(line 1, column 37\)$/,
    },
    {
      what: 'GraphQL limits that are not whole numbers above 0',
      plugins: [BadLimits],
      message:
        'Tool "acme_graphql" of plugin "acme-graphql-limits": its graphql.limits needs maxDepth and maxFields, each a whole number above 0 (such as { maxDepth: 10, maxFields: 500 }).',
    },
  ];

  for (const { what, plugins, message } of cases) {
    it(what, async () => {
      const error = await startupError(plugins);
      expect(error.name, error.stack).to.equal('StartupError');
      if (typeof message === 'string') expect(error.message).to.equal(message);
      else expect(error.message).to.match(message);
    });
  }

  it('starts a plugin whose missing setting is Type.Optional, and reads it as undefined', async () => {
    const kernel = await startTestKernel({ plugins: [OptionalSetting] });
    try {
      expect(kernel.kernel.settings.of(Type.Object({ ACME_ZONE: Type.Optional(Type.String()) }))).to.deep.equal({ ACME_ZONE: undefined });
    } finally {
      await kernel.close();
    }
  });

  it('starts a plugin whose required setting is given, and reads it typed', async () => {
    const kernel = await startTestKernel({ plugins: [MissingSetting], env: { ACME_REGION: 'eu-west' } });
    try {
      expect(kernel.kernel.settings.of(Type.Object({ ACME_REGION: Type.String() }))).to.deep.equal({ ACME_REGION: 'eu-west' });
    } finally {
      await kernel.close();
    }
  });
});
