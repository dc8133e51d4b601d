import { StartupError } from '../errors/tool-error.js';
import type { PluginSpec, ToolDefinition } from '../plugin/contract.js';

/** A group of tools a server serves or not as one (`github.actions`), as the kernel knows it. */
export interface Toolset {
  readonly name: string;
  readonly plugin: string;
  readonly description: string;
  /** Served when no toolset is selected. */
  readonly default: boolean;
  readonly tools: readonly string[];
}

const TOOLSET_NAME = /^[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)?$/;

/** The toolset a tool belongs to: its own `toolset`, else its plugin's name. */
export const toolsetOf = (tool: ToolDefinition): string => tool.spec.toolset ?? tool.plugin;

/**
 * The toolsets of the registered tools, checked: each is its plugin's name or `<plugin>.<group>` (lower case), so
 * a plugin's name selects all of its toolsets and no plugin can put a tool in another's; a toolset a plugin
 * declares but gives no tool is refused too (a typo on one side). Fails start-up naming the plugin and tool.
 */
export function collectToolsets(plugins: readonly PluginSpec[], tools: readonly ToolDefinition[]): Map<string, Toolset> {
  const sets = new Map<string, { plugin: string; tools: string[] }>();
  for (const tool of tools) {
    const name = toolsetOf(tool);
    const where = `Tool "${tool.spec.name}" of plugin "${tool.plugin}"`;
    if (!TOOLSET_NAME.test(name)) {
      throw new StartupError(
        `${where}: toolset "${name}" is not a toolset name: use "${tool.plugin}" or "${tool.plugin}.<group>" (lower case, digits, - and _).`,
      );
    }
    if (name !== tool.plugin && !name.startsWith(`${tool.plugin}.`)) {
      throw new StartupError(
        `${where}: toolset "${name}" must be "${tool.plugin}" or start with "${tool.plugin}.", so that the plugin's name selects all of its tools.`,
      );
    }
    const set = sets.get(name) ?? { plugin: tool.plugin, tools: [] };
    set.tools.push(tool.spec.name);
    sets.set(name, set);
  }
  const declared = new Map(plugins.flatMap((p) => Object.entries(p.toolsets ?? {}).map(([name, spec]) => [name, { plugin: p.name, spec }] as const)));
  for (const [name, { plugin }] of declared) {
    if (!sets.has(name))
      throw new StartupError(`Plugin "${plugin}" declares toolset "${name}", but none of its tools is in it: give a tool \`toolset: "${name}"\` or remove it.`);
  }
  return new Map(
    [...sets].map(([name, { plugin, tools: members }]) => {
      const spec = declared.get(name)?.spec;
      return [name, { name, plugin, description: spec?.description ?? `The tools of the ${plugin} plugin.`, default: spec?.default ?? true, tools: members }];
    }),
  );
}
