import Type from 'typebox';
import { CoreSettings } from '../config/core-settings.js';
import type { Settings } from '../config/settings.js';
import { StartupError } from '../errors/tool-error.js';
import type { ToolDefinition } from '../plugin/contract.js';
import { didYouMean } from '../text/nearest-names.js';

const SelectionSettings = Type.Pick(CoreSettings, ['MCP_TOOLSETS', 'MCP_TOOLS', 'MCP_READ_ONLY']);

/** The tool that reads spilled values back: served whenever a served tool can spill, whatever the selection. */
export const ARTIFACT_READER = 'artifact_read';

/** What the selection needs to know of a registered tool. */
export interface SelectableTool {
  definition: ToolDefinition;
  /** The method the tool's route sends, when known at start-up. */
  method?: string;
  /** Whether a result of this tool can be saved as an artifact (a spill stage, or a plugin that saves them). */
  canSpill: boolean;
}

/**
 * Which tools a server offers: MCP_TOOLSETS (plugin names, or "all") and MCP_TOOLS (tool names) add up, as
 * github-mcp-server's `--toolsets` and `--tools` do; with neither, every tool. MCP_READ_ONLY then hides what
 * can change something. Names that match nothing fail start-up with the nearest ones, so a typo never
 * silently serves fewer tools. Works from plugin names and tool metadata only, for third-party plugins too.
 * MCP_READ_ONLY decides by method: a tool is served only if its route is a GET and it is annotated read-only,
 * and on the wire the request gate refuses anything but GET (see request-gate.ts).
 */
export class ToolSelection {
  private readonly hidden = new Map<string, string>();

  constructor(settings: Settings, tools: readonly SelectableTool[]) {
    const { MCP_TOOLSETS, MCP_TOOLS, MCP_READ_ONLY } = settings.of(SelectionSettings);
    const toolsets = listSetting(MCP_TOOLSETS);
    const named = listSetting(MCP_TOOLS);
    const plugins = [...new Set(tools.map((t) => t.definition.plugin))];
    const names = tools.map((t) => t.definition.spec.name);
    for (const set of toolsets) {
      if (set !== 'all' && !plugins.includes(set)) {
        throw new StartupError(
          `MCP_TOOLSETS (--toolsets) names "${set}", which is not a loaded plugin with tools.${didYouMean(set, plugins)} Toolsets: all, ${plugins.join(', ')}.`,
        );
      }
    }
    for (const name of named) {
      if (!names.includes(name)) {
        throw new StartupError(
          `MCP_TOOLS (--tools) names "${name}", which no loaded plugin provides.${didYouMean(name, names)} \`mcp-devtools tools\` lists the tools.`,
        );
      }
    }
    const everything = toolsets.length === 0 && named.length === 0;
    const inSelection = (t: SelectableTool): boolean =>
      everything || toolsets.includes('all') || toolsets.includes(t.definition.plugin) || named.includes(t.definition.spec.name);
    const spills = tools.some((t) => t.definition.spec.name !== ARTIFACT_READER && inSelection(t) && t.canSpill);
    const readOnly = MCP_READ_ONLY;
    for (const tool of tools) {
      const { spec, plugin } = tool.definition;
      const selected = inSelection(tool) || (spec.name === ARTIFACT_READER && spills);
      if (!selected) {
        this.hidden.set(
          spec.name,
          toolsets.length > 0
            ? `MCP_TOOLSETS=${toolsets.join(',')} does not include its plugin "${plugin}"${named.length > 0 ? ' and MCP_TOOLS does not list it' : ''}`
            : `MCP_TOOLS=${named.join(',')} does not list it`,
        );
      } else if (readOnly && (!spec.annotations.readOnlyHint || (tool.method !== undefined && tool.method !== 'GET'))) {
        this.hidden.set(spec.name, 'MCP_READ_ONLY=true hides it (it can change things)');
      }
    }
  }

  /** Why the configuration hides a tool; undefined when it is served. */
  hiddenBy(tool: string): string | undefined {
    return this.hidden.get(tool);
  }
}

function listSetting(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}
