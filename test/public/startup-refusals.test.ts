// Plugin mistakes that used to surface late or silently, refused at start-up through the public kit (issue 55,
// item 5): a tool without `input`, routes without a client exposed as `upstream`, a built-in setting's name taken
// by a plugin (its value never echoed, and scrubbed even when that vendor is not loaded), and two plugins of one
// name (both named, with their modules, and what to change).
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import {
  defineTool,
  identityFrom,
  identitySettings,
  inject,
  Plugin,
  READ,
  ReadEnvelope,
  secret,
  TOKENS,
  Tool,
  transportLimitsFrom,
  Type,
  UpstreamClient,
  type Settings,
  type ToolContext,
  type ToolOutput,
} from 'mcp-devtools/plugin';
import { startTestKernel, textOf, type PluginClass, type TestKernelOptions } from 'mcp-devtools/testing';

const NoArgs = Type.Object({}, { additionalProperties: false });
const GITHUB_TOKEN = 'ghp_reservedSettingTest0123456789abcdefAB';

async function startupError(options: TestKernelOptions): Promise<Error> {
  try {
    const kernel = await startTestKernel(options);
    await kernel.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the kernel started');
}

const noInput = defineTool({
  name: 'acme_no_input',
  title: 'No input',
  description: 'Forgot its input schema.',
  annotations: READ,
  input: undefined as unknown as typeof NoArgs,
  handler: async () => ({ value: 1 }),
});

@Plugin({ name: 'acme-input', version: '1.0.0', tools: [noInput] })
class NoInputPlugin {}

const ThingArgs = Type.Object({ id: Type.Optional(Type.String()) }, { additionalProperties: false });
const THING = {
  name: 'acme_thing',
  title: 'Thing',
  description: 'Reads a thing.',
  annotations: READ,
  input: ThingArgs,
  envelope: ReadEnvelope,
  route: () => ({ method: 'GET' as const, path: '/things/1' }),
};

const client = (settings: Settings): UpstreamClient =>
  new UpstreamClient({
    vendor: 'acme',
    label: 'Acme',
    baseUrl: settings.get<string>('ACME_URL'),
    auth: () => ({ authorization: 'Bearer acme-token-0123456789' }),
    missingCredentials: 'unused',
    secretMaterial: () => 'acme-token-0123456789',
    ...identityFrom(settings, 'ACME'),
    ...transportLimitsFrom(settings),
  });
const AcmeSettings = Type.Object({ ACME_URL: Type.String({ default: 'http://127.0.0.1:9' }), ...identitySettings('ACME', 'acme') });

/** The client the handler uses, kept under another name than upstream (a method's `this` compiles either way). */
@Plugin({ name: 'acme-client', version: '1.0.0', settings: AcmeSettings })
class ClientNotUpstream {
  readonly client: UpstreamClient;
  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.client = client(settings);
  }

  @Tool(THING)
  async thing(ctx: ToolContext<typeof ThingArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: (await this.client.send(ctx, ctx.route)).body };
  }
}

let moduleClient: UpstreamClient | undefined;

/** The client made in the module rather than held by the plugin. */
@Plugin({ name: 'acme-noclient', version: '1.0.0', settings: AcmeSettings })
class NoClientAtAll {
  constructor(@inject(TOKENS.Settings) settings: Settings) {
    moduleClient = client(settings);
  }

  @Tool(THING)
  async thing(ctx: ToolContext<typeof ThingArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: (await moduleClient!.send(ctx, ctx.route)).body };
  }
}

@Plugin({
  name: 'acme-token',
  version: '1.0.0',
  settings: Type.Object({ GITHUB_TOKEN: Type.Integer({ default: 0, description: 'Not a secret, says this plugin.' }) }),
})
class ReservedSetting {}

@Plugin({ name: 'acme-atlassian', version: '1.0.0', settings: Type.Object({ ATLASSIAN_API_TOKEN: secret(Type.String({ default: '' })) }) })
class ReservedSecretSetting {}

@Plugin({
  name: 'acme-echo',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'acme_echo',
      title: 'Echo',
      description: 'Echoes what the environment holds, as a vendor that echoes request headers would.',
      annotations: READ,
      input: NoArgs,
      handler: async (): Promise<ToolOutput> => ({ value: { echoed: `token ${GITHUB_TOKEN}` } }),
    }),
  ],
})
class EchoPlugin {}

@Plugin({ name: 'jira', version: '2.0.0' })
class InProcessJira {}

const CLASH_MODULE = fileURLToPath(new URL('../support/name-clash-plugin.js', import.meta.url));

describe('public API: plugin mistakes refused at start-up, naming the plugin', () => {
  it('a tool without input: says to give it one, not a TypeError', async () => {
    const error = await startupError({ plugins: [NoInputPlugin] });
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.equal(
      'Tool "acme_no_input" of plugin "acme-input": it has no input schema. Give it one: Type.Object({ ... }, { additionalProperties: false }), or Type.Object({}, { additionalProperties: false }) for a tool without arguments.',
    );
  });

  it('routes with the client under another name than upstream: names the plugin, its tools and the member to rename', async () => {
    const error = await startupError({ plugins: [ClientNotUpstream] });
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.contain('Plugin "acme-client": its tool acme_thing declares a route, but the plugin exposes no upstream client');
    expect(error.message).to.contain('it holds an UpstreamClient as "client": name it readonly upstream');
  });

  it('routes without any client: says to expose one as readonly upstream', async () => {
    const error = await startupError({ plugins: [NoClientAtAll] });
    expect(error.message).to.contain('Plugin "acme-noclient": its tool acme_thing declares a route, but the plugin exposes no upstream client');
    expect(error.message).to.contain('readonly upstream = new UpstreamClient({ ... })');
  });

  it("a built-in vendor's setting name is reserved, even when that vendor is not loaded: refused, its value never echoed", async () => {
    const error = await startupError({ plugins: [ReservedSetting], env: { GITHUB_TOKEN } });
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.equal(
      'Plugin "acme-token" declares the setting GITHUB_TOKEN, which belongs to the built-in github and ci plugins: the built-in settings\' names are reserved, whether or not that plugin is loaded, so that no plugin reads or shows their values. Name it after your plugin, such as ACME_TOKEN.',
    );
    expect(error.message).not.to.contain(GITHUB_TOKEN);
  });

  it('a shared Atlassian secret is reserved too, declared as a secret or not', async () => {
    const error = await startupError({ plugins: [ReservedSecretSetting], env: { ATLASSIAN_API_TOKEN: 'atlassian-secret-value-0123' } });
    expect(error.message).to.contain('declares the setting ATLASSIAN_API_TOKEN, which belongs to the built-in jira, confluence, bitbucket and ci plugins');
    expect(error.message).not.to.contain('atlassian-secret-value-0123');
  });

  it('a built-in secret set in the environment is scrubbed from results and logs though its vendor is not loaded', async () => {
    const kernel = await startTestKernel({ plugins: [EchoPlugin], env: { GITHUB_TOKEN } });
    try {
      const text = textOf(await kernel.call('acme_echo', {}));
      expect(text).not.to.contain(GITHUB_TOKEN);
      expect(text).to.contain('[REDACTED]');
      kernel.logger.info({ header: `token ${GITHUB_TOKEN}` }, 'a plugin logs what it should not');
      expect(kernel.logs.join('\n')).not.to.contain(GITHUB_TOKEN);
    } finally {
      await kernel.close();
    }
  });

  it('a plugin named as a built-in one: names both classes, their modules, and what to change', async () => {
    const error = await startupError({ configFile: { content: JSON.stringify({ plugins: ['jira', CLASH_MODULE] }) } });
    expect(error.name).to.equal('StartupError');
    expect(error.message).to.equal(
      `Two plugins are named "jira": JiraPlugin (the built-in plugin "jira") and AcmeJiraPlugin (module ${CLASH_MODULE}). A plugin's name is what config files, toolsets, settings sections and dependsOn use, so it must be unique: rename one in its @Plugin({ name }) (such as "acme-jira"), or load only one of them.`,
    );
  });

  it("a plugin given in-process with the name of a module's plugin: names both, and where each came from", async () => {
    const error = await startupError({ configFile: { content: JSON.stringify({ plugins: [CLASH_MODULE] }) }, plugins: [InProcessJira as PluginClass] });
    expect(error.message).to.contain(`Two plugins are named "jira": AcmeJiraPlugin (module ${CLASH_MODULE}) and InProcessJira (given in-process)`);
  });
});
