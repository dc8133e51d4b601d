import { expect } from 'chai';
import Type from 'typebox';
import { CoreSettings } from '../../../core/config/core-settings.js';
import { resolveSettings } from '../../../core/config/settings.js';
import { mapLayer } from '../../../core/config/sources.js';
import { Kernel } from '../../../core/kernel/kernel.js';
import { createLogger } from '../../../core/logging/logger.js';
import type { ToolOutput } from '../../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../../core/plugin/decorators.js';
import type { PluginClass } from '../../../core/plugin/metadata.js';
import { openStore } from '../../../core/store/open-store.js';

const NoArgs = Type.Object({});
const readOnly = { readOnlyHint: true };

@Plugin({ name: 'GitLab Plugin', version: '1.0.0' })
class SpacedName {}

@Plugin({ name: 'spaced-tool', version: '1.0.0' })
class SpacedTool {
  @Tool({ name: 'get issue', title: 'Get', description: 'g', annotations: readOnly, input: NoArgs })
  async run(): Promise<ToolOutput> {
    return { value: 1 };
  }
}

@Plugin({ name: 'long-tool', version: '1.0.0' })
class LongTool {
  @Tool({ name: 'x'.repeat(65), title: 'Long', description: 'l', annotations: readOnly, input: NoArgs })
  async run(): Promise<ToolOutput> {
    return { value: 1 };
  }
}

@Plugin({ name: 'fine', version: '1.0.0' })
class Fine {
  @Tool({ name: 'fine.get-issue_2', title: 'Fine', description: 'f', annotations: readOnly, input: NoArgs })
  async run(): Promise<ToolOutput> {
    return { value: 1 };
  }
}

async function startupError(plugins: PluginClass[]): Promise<string | undefined> {
  const settings = resolveSettings([{ name: 'core', schema: CoreSettings, sections: [] }], [mapLayer('test', {})], new Map(), () => {});
  const logger = createLogger({ level: 'silent', secrets: [], destination: { write: () => {} } });
  try {
    const kernel = await Kernel.start({ plugins, settings, logger, store: await openStore('memory://') });
    await kernel.close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('plugin and tool names, checked at start-up', () => {
  it('refuses a plugin name config files and toolsets could not name, naming the class', async () => {
    expect(await startupError([SpacedName])).to.match(/^SpacedName is named "GitLab Plugin" in @Plugin: a plugin's name is 1 to 64 lower-case letters/);
  });

  it('refuses a tool name outside the MCP specification advice (a space, 65 characters), naming the plugin', async () => {
    expect(await startupError([SpacedTool])).to.match(/^Plugin "spaced-tool" declares a tool named "get issue": a tool's name is 1 to 64 of A-Z, a-z, 0-9/);
    expect(await startupError([LongTool])).to.match(/^Plugin "long-tool" declares a tool named "x{65}"/);
  });

  it('takes every name the advice allows (letters, digits, ".", "-", "_")', async () => {
    expect(await startupError([Fine])).to.equal(undefined);
  });
});
