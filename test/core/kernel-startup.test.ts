import { expect } from 'chai';
import { inject } from 'tsyringe';
import Type from 'typebox';
import { CoreSettings } from '../../core/config/core-settings.js';
import { resolveSettings } from '../../core/config/settings.js';
import { mapLayer } from '../../core/config/sources.js';
import { Kernel } from '../../core/kernel/kernel.js';
import { createLogger, type Logger } from '../../core/logging/logger.js';
import type { ToolOutput } from '../../core/plugin/tool-context.js';
import type { BootContext, DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import type { PluginClass } from '../../core/plugin/metadata.js';
import { openStore } from '../../core/store/open-store.js';
import { TOKENS } from '../../core/tokens.js';

const events: string[] = [];
const NoArgs = Type.Object({});
const readOnly = { readOnlyHint: true };

@Plugin({ name: 'alpha', version: '1.0.0', dependsOn: ['beta'] })
class Alpha implements DevtoolsPlugin {
  constructor(@inject(TOKENS.Logger) private readonly logger: Logger) {}
  boot(): void {
    events.push(`boot alpha (logger ${typeof this.logger.info})`);
  }
  close(): void {
    events.push('close alpha');
  }
  @Tool({ name: 'alpha_tool', title: 'Alpha', description: 'a', annotations: readOnly, input: NoArgs })
  async run(): Promise<ToolOutput> {
    return { value: 'a' };
  }
}

@Plugin({ name: 'beta', version: '1.0.0' })
class Beta implements DevtoolsPlugin {
  boot(): void {
    events.push('boot beta');
  }
  close(): void {
    events.push('close beta');
  }
}

@Plugin({ name: 'lonely', version: '1.0.0', dependsOn: ['absent'] })
class Lonely {}

@Plugin({ name: 'chicken', version: '1.0.0', dependsOn: ['egg'] })
class Chicken {}
@Plugin({ name: 'egg', version: '1.0.0', dependsOn: ['chicken'] })
class Egg {}

@Plugin({ name: 'slow', version: '1.0.0', bootTimeoutMs: 50 })
class Slow implements DevtoolsPlugin {
  boot(): Promise<void> {
    return new Promise(() => {});
  }
}

@Plugin({ name: 'broken-boot', version: '1.0.0' })
class BrokenBoot implements DevtoolsPlugin {
  boot(): void {
    throw new Error('cannot reach the license server');
  }
}

@Plugin({ name: 'copycat', version: '1.0.0' })
class Copycat {
  @Tool({ name: 'alpha_tool', title: 'Copy', description: 'c', annotations: readOnly, input: NoArgs })
  async run(): Promise<ToolOutput> {
    return { value: 'c' };
  }
}

@Plugin({ name: 'bad-schema', version: '1.0.0' })
class BadSchema {
  @Tool({ name: 'bad_tool', title: 'Bad', description: 'b', annotations: readOnly, input: { type: 'object', properties: { a: { type: 'strnig' } } } as never })
  async run(): Promise<ToolOutput> {
    return { value: 'b' };
  }
}

@Plugin({ name: 'bad-envelope', version: '1.0.0' })
class BadEnvelope {
  @Tool({
    name: 'enveloped_tool',
    title: 'Env',
    description: 'e',
    annotations: readOnly,
    input: NoArgs,
    envelope: { type: 'object', required: 'data' } as never,
  })
  async run(): Promise<ToolOutput<never>> {
    return { value: 'e' };
  }
}

class NotAPlugin {}

/** A service two plugins would both register: the second would replace the first for every later plugin. */
const DIRECTORY = 'acme:Directory';

@Plugin({ name: 'first-directory', version: '1.0.0' })
class FirstDirectory implements DevtoolsPlugin {
  boot(ctx: BootContext): void {
    ctx.provide(DIRECTORY, { users: ['ada'] });
  }
}

@Plugin({ name: 'second-directory', version: '1.0.0' })
class SecondDirectory implements DevtoolsPlugin {
  boot(ctx: BootContext): void {
    ctx.provide(DIRECTORY, { users: [] });
  }
}

@Plugin({ name: 'directory-reader', version: '1.0.0', dependsOn: ['first-directory'] })
class DirectoryReader {
  constructor(@inject(DIRECTORY) readonly directory: { users: string[] }) {}
}

@Plugin({ name: 'settings-thief', version: '1.0.0' })
class SettingsThief implements DevtoolsPlugin {
  boot(ctx: BootContext): void {
    ctx.provide(TOKENS.Settings, {});
  }
}

async function start(plugins: PluginClass[], lines: string[] = []): Promise<Kernel> {
  const settings = resolveSettings([{ name: 'core', schema: CoreSettings, sections: [] }], [mapLayer('test', {})], new Map(), () => {});
  const logger = createLogger({ level: 'info', secrets: [], destination: { write: (l: string) => lines.push(l) } });
  return Kernel.start({ plugins, settings, logger, store: await openStore('memory://') });
}

async function startupError(plugins: PluginClass[]): Promise<string> {
  try {
    const kernel = await start(plugins);
    await kernel.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected start-up to fail');
}

describe('kernel start-up and shutdown', () => {
  beforeEach(() => (events.length = 0));

  it('boots plugins after their dependencies, injects a logger, and closes them in reverse order', async () => {
    const kernel = await start([Alpha, Beta]);
    expect(kernel.plugins).to.deep.equal(['beta', 'alpha']);
    await kernel.close();
    expect(events).to.deep.equal(['boot beta', 'boot alpha (logger function)', 'close alpha', 'close beta']);
  });

  it('names a missing dependency', async () => {
    expect(await startupError([Lonely])).to.equal('Plugin "lonely" needs plugin "absent", which is not loaded. Add "absent" to the config file\'s plugins.');
  });

  it('names a dependency cycle', async () => {
    expect(await startupError([Chicken, Egg])).to.equal('Plugins depend on each other in a cycle: chicken -> egg -> chicken.');
  });

  it("fails a boot that hangs after the plugin's timeout, naming it", async () => {
    expect(await startupError([Slow])).to.equal('Plugin "slow" boot did not finish within 50 ms.');
  });

  it('names a plugin whose boot throws', async () => {
    expect(await startupError([BrokenBoot])).to.equal('Plugin "broken-boot" boot failed: cannot reach the license server');
  });

  it('refuses duplicate tool names at start-up, naming both plugins', async () => {
    expect(await startupError([Alpha, Beta, Copycat])).to.equal(
      'Tool "alpha_tool" of plugin "copycat": the name is already taken by plugin "alpha". Tool names must be unique.',
    );
  });

  it('refuses an invalid input schema at start-up, naming the tool', async () => {
    expect(await startupError([BadSchema])).to.match(/^Tool "bad_tool" of plugin "bad-schema": invalid input schema: .*properties\/a\/type/);
  });

  it('hands a service a plugin provides to the plugins that boot after it', async () => {
    const kernel = await start([DirectoryReader, FirstDirectory]);
    expect(kernel.resolve<{ users: string[] }>(DIRECTORY)).to.deep.equal({ users: ['ada'] });
    await kernel.close();
  });

  it('refuses a service that another plugin already provides, naming both plugins', async () => {
    expect(await startupError([FirstDirectory, SecondDirectory])).to.equal(
      'Plugin "second-directory" provides "acme:Directory", which plugin "first-directory" already provides: a service has one provider. Load only one of them (the config file\'s plugins), or give one service another token.',
    );
  });

  it("refuses a plugin that provides one of the server's own services", async () => {
    expect(await startupError([SettingsThief])).to.match(
      /^Plugin "settings-thief" provides "mcp-devtools:Settings", which the server itself already provides: /,
    );
  });

  it('refuses a class that is not a plugin', async () => {
    expect(await startupError([NotAPlugin])).to.equal('NotAPlugin is not a plugin: decorate it with @Plugin({ name, version }).');
  });

  it('registers a tool whose envelope schema is broken without it, and logs a warning', async () => {
    const lines: string[] = [];
    const kernel = await start([BadEnvelope], lines);
    const [definition] = kernel.definitions();
    expect(definition?.spec.name).to.equal('enveloped_tool');
    expect(definition?.spec.envelope).to.equal(undefined);
    expect(lines.some((l) => l.includes('envelope schema cannot be compiled') && l.includes('"level":40'))).to.equal(true);
    await kernel.close();
  });

  it('lets in-flight calls finish on close within the grace period, then refuses new calls', async () => {
    const kernel = await start([Alpha, Beta]);
    const pending = kernel.call('alpha_tool', {}, { subject: 'local', groups: [], via: 'local' });
    await kernel.close(1000);
    expect((await pending).content[0]).to.deep.equal({ type: 'text', text: '"a"' });
    let refused = false;
    await kernel.call('alpha_tool', {}, { subject: 'local', groups: [], via: 'local' }).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });
});
