// Third-party plugins that cannot start, written and started only through the public API, as an outside
// author would: each must fail start-up with a StartupError that names the plugin and what to fix.
import { expect } from 'chai';
import { Plugin, Tool, Type, type DevtoolsPlugin, type ToolOutput } from 'mcp-devtools/plugin';
import { startTestKernel, type PluginClass } from 'mcp-devtools/testing';

const NoArgs = Type.Object({}, { additionalProperties: false });
const readOnly = { readOnlyHint: true };

@Plugin({ name: 'acme-broken-schema', version: '1.0.0' })
class BrokenSchema {
  // Hand-written JSON Schema with a typo: TypeBox would compile it without complaint.
  @Tool({
    name: 'acme_typo',
    title: 'Typo',
    description: 'x',
    annotations: readOnly,
    input: { type: 'object', properties: { limit: { type: 'integr' } } } as never,
  })
  async typo(): Promise<ToolOutput> {
    return { value: 'unreachable' };
  }
}

@Plugin({ name: 'acme-string-input', version: '1.0.0' })
class StringInput {
  @Tool({ name: 'acme_string', title: 'String', description: 'x', annotations: readOnly, input: Type.String() as never })
  async run(): Promise<ToolOutput> {
    return { value: 'unreachable' };
  }
}

@Plugin({ name: 'acme-first', version: '1.0.0' })
class First {
  @Tool({ name: 'acme_status', title: 'Status', description: 'x', annotations: readOnly, input: NoArgs })
  async status(): Promise<ToolOutput> {
    return { value: 'first' };
  }
}

@Plugin({ name: 'acme-second', version: '1.0.0' })
class Second {
  @Tool({ name: 'acme_status', title: 'Status again', description: 'x', annotations: readOnly, input: NoArgs })
  async status(): Promise<ToolOutput> {
    return { value: 'second' };
  }
}

@Plugin({ name: 'acme-squatter', version: '1.0.0' })
class Squatter {
  @Tool({ name: 'artifact_read', title: 'Mine', description: 'x', annotations: readOnly, input: NoArgs })
  async read(): Promise<ToolOutput> {
    return { value: 'mine' };
  }
}

@Plugin({ name: 'acme-reports', version: '1.0.0', dependsOn: ['acme-auth'] })
class NeedsAuth {}

@Plugin({ name: 'acme-stuck', version: '1.0.0', bootTimeoutMs: 100 })
class Stuck implements DevtoolsPlugin {
  boot(): Promise<void> {
    return new Promise(() => {}); // waits for a licence server that never answers
  }
}

@Plugin({ name: 'acme-refused', version: '1.0.0' })
class RefusedBoot implements DevtoolsPlugin {
  boot(): void {
    throw new Error('ACME_REGION "mars" is not a region');
  }
}

class Undecorated {}

async function startupError(plugins: readonly PluginClass[]): Promise<Error> {
  try {
    const kernel = await startTestKernel({ plugins });
    await kernel.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the kernel started');
}

describe('public API: a third-party plugin that cannot start gets a named start-up error', () => {
  it('a broken input schema names the plugin, the tool and the schema problem', async () => {
    const error = await startupError([BrokenSchema]);
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.contain('Tool "acme_typo" of plugin "acme-broken-schema": invalid input schema');
    expect(error.message).to.contain('type');
  });

  it('an input schema that is not an object is refused', async () => {
    const error = await startupError([StringInput]);
    expect(error.message).to.equal('Tool "acme_string" of plugin "acme-string-input": the input schema must be an object schema.');
  });

  it('a duplicate tool name names both plugins', async () => {
    const error = await startupError([First, Second]);
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.equal('Tool "acme_status" of plugin "acme-second": the name is already taken by plugin "acme-first". Tool names must be unique.');
  });

  it('a tool named like a built-in one is refused too', async () => {
    const error = await startupError([Squatter]);
    expect(error.message).to.contain('Tool "artifact_read" of plugin "acme-squatter": the name is already taken by plugin "artifacts"');
  });

  it('the same plugin listed twice is refused', async () => {
    const error = await startupError([First, First]);
    expect(error.message).to.equal('Plugin "acme-first" is loaded twice; list it once in the config file.');
  });

  it('a missing dependency names the plugin and the one it needs', async () => {
    const error = await startupError([NeedsAuth]);
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.equal('Plugin "acme-reports" needs plugin "acme-auth", which is not loaded. Add "acme-auth" to the config file\'s plugins.');
  });

  it("a boot that hangs fails after the plugin's boot timeout, named", async () => {
    const error = await startupError([Stuck]);
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.equal('Plugin "acme-stuck" boot did not finish within 100 ms.');
  });

  it("a boot that throws is reported with the plugin's own reason", async () => {
    const error = await startupError([RefusedBoot]);
    expect(error.message).to.equal('Plugin "acme-refused" boot failed: ACME_REGION "mars" is not a region');
  });

  it('a class without @Plugin is refused with what to add', async () => {
    const error = await startupError([Undecorated]);
    expect(error.message).to.equal('Undecorated is not a plugin: decorate it with @Plugin({ name, version }).');
  });

  it('a well-formed plugin beside them starts and answers', async () => {
    const kernel = await startTestKernel({ plugins: [First] });
    try {
      const result = await kernel.call('acme_status');
      expect(result.content).to.deep.equal([{ type: 'text', text: 'first' }]);
    } finally {
      await kernel.close();
    }
  });
});
