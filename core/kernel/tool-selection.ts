import Type from 'typebox';
import { CoreSettings } from '../config/core-settings.js';
import type { Settings } from '../config/settings.js';
import { StartupError } from '../errors/tool-error.js';
import type { ToolDefinition } from '../plugin/contract.js';
import { didYouMean } from '../text/nearest-names.js';
import { toolsetOf, type Toolset } from './toolsets.js';

const SelectionSettings = Type.Pick(CoreSettings, ['MCP_TOOLSETS', 'MCP_TOOLS', 'MCP_EXCLUDE_TOOLS', 'MCP_DYNAMIC_TOOLSETS', 'MCP_READ_ONLY', 'MCP_CODE_MODE']);

/** The tool that reads spilled values back: served whenever a served tool can spill, whatever the selection. */
export const ARTIFACT_READER = 'artifact_read';

/** The tools that list and enable toolsets: served only with MCP_DYNAMIC_TOOLSETS (plugins/toolsets). */
export const TOOLSET_TOOLS: readonly string[] = ['list_toolsets', 'get_toolset_tools', 'enable_toolset'];
/** The toolset tool that changes what a caller is served. */
export const ENABLE_TOOLSET = 'enable_toolset';

/** The toolset of code mode's tools (search_tools, execute: plugins/code-mode), the only one MCP_CODE_MODE lists. */
export const CODE_TOOLSET = 'code';

/**
 * Who reaches a tool: an MCP client (`tools/list`, `tools/call`), or a program that `execute` runs, which reaches
 * the tools the selection serves even when code mode keeps them off the list, and never the code tools themselves.
 */
export type Reach = 'client' | 'program';

/** What the selection needs to know of a registered tool. */
export interface SelectableTool {
  definition: ToolDefinition;
  /** Whether the tool can change something (a route that is not a GET, a GraphQL mutation), when known at start-up. */
  writes?: boolean;
  /** Whether a result of this tool can be saved as an artifact (a spill stage, or a plugin that saves them). */
  canSpill: boolean;
}

/**
 * Which tools a server offers, as github-mcp-server's `--toolsets`, `--tools`, `--exclude-tools` and
 * `--dynamic-toolsets` do. MCP_TOOLSETS names toolsets (`github.actions`), plugins (a plugin's name selects every
 * toolset of it), `default` (the toolsets their plugins mark as default) or `all`; MCP_TOOLS adds tools by name;
 * with neither, the default toolsets are served. MCP_EXCLUDE_TOOLS then takes tools away, and MCP_READ_ONLY hides
 * what can change something (a route that is not a GET, a GraphQL mutation; on the wire the request gate refuses every other write).
 * MCP_DYNAMIC_TOOLSETS starts a client with the three toolset tools and what MCP_TOOLSETS / MCP_TOOLS name
 * explicitly; `enable_toolset` adds a toolset for that caller. Names that match nothing fail start-up with the
 * nearest ones, so a typo never silently serves fewer tools.
 */
export class ToolSelection {
  /** Why each tool is hidden whatever the caller enables (configuration, read-only); absent when it can be served. */
  private readonly hiddenAlways = new Map<string, string>();
  /** Tools served before any toolset is enabled. */
  private readonly base = new Set<string>();
  readonly dynamic: boolean;
  readonly toolsets: ReadonlyMap<string, Toolset>;
  private readonly toolsetByTool = new Map<string, string>();
  private readonly spillers = new Set<string>();
  /** MCP_CODE_MODE: clients are served the code toolset and artifact_read; the selection is what programs reach. */
  readonly codeMode: boolean;
  private readonly codeTools = new Set<string>();

  /**
   * `withoutCredentials`: the vendor plugins whose tools can only fail (vendor-credentials.ts), and why. With no
   * selection their toolsets are left out of the default set; naming them (`--toolsets jira`, `all`, `default`)
   * serves them as before.
   */
  constructor(
    settings: Settings,
    tools: readonly SelectableTool[],
    toolsets: ReadonlyMap<string, Toolset>,
    private readonly withoutCredentials: ReadonlyMap<string, string> = new Map(),
  ) {
    const { MCP_TOOLSETS, MCP_TOOLS, MCP_EXCLUDE_TOOLS, MCP_DYNAMIC_TOOLSETS, MCP_READ_ONLY, MCP_CODE_MODE } = settings.of(SelectionSettings);
    this.dynamic = MCP_DYNAMIC_TOOLSETS;
    this.codeMode = MCP_CODE_MODE;
    this.toolsets = toolsets;
    const named = listSetting(MCP_TOOLSETS);
    const listedTools = listSetting(MCP_TOOLS);
    const excluded = new Set(listSetting(MCP_EXCLUDE_TOOLS));
    const names = tools.map((t) => t.definition.spec.name);
    for (const tool of tools) {
      this.toolsetByTool.set(tool.definition.spec.name, toolsetOf(tool.definition));
      if (toolsetOf(tool.definition) === CODE_TOOLSET) this.codeTools.add(tool.definition.spec.name);
      if (tool.canSpill && tool.definition.spec.name !== ARTIFACT_READER) this.spillers.add(tool.definition.spec.name);
    }
    const plugins = new Set(tools.map((t) => t.definition.plugin));
    this.plugins = plugins;
    const chosen = new Set<string>();
    for (const name of named) {
      const matched = this.toolsetsNamed(name, plugins);
      if (matched.length === 0) {
        const choices = ['all', 'default', ...plugins, ...toolsets.keys()];
        throw new StartupError(
          `MCP_TOOLSETS (--toolsets) names "${name}", which is no toolset or plugin with tools.${didYouMean(name, choices)} Toolsets: ${[...toolsets.keys()].join(', ')} (a plugin's name selects all of its toolsets; also all, default).`,
        );
      }
      for (const set of matched) chosen.add(set);
    }
    for (const name of [...listedTools, ...excluded]) {
      if (!names.includes(name)) {
        const setting = listedTools.includes(name) ? 'MCP_TOOLS (--tools)' : 'MCP_EXCLUDE_TOOLS (--exclude-tools)';
        throw new StartupError(
          `${setting} names "${name}", which no loaded plugin provides.${didYouMean(name, names)} \`mcp-devtools tools\` lists the tools.`,
        );
      }
    }
    // With nothing named, the default toolsets of the vendors that have credentials; in dynamic mode, nothing
    // until a toolset is enabled.
    this.defaultSet = named.length === 0 && listedTools.length === 0 && !this.dynamic;
    if (this.defaultSet) for (const [name, set] of toolsets) if (set.default && !withoutCredentials.has(set.plugin)) chosen.add(name);
    for (const tool of tools) {
      const { spec } = tool.definition;
      const meta = TOOLSET_TOOLS.includes(spec.name);
      if (meta && !this.dynamic) this.hiddenAlways.set(spec.name, 'it is served with MCP_DYNAMIC_TOOLSETS=true (--dynamic-toolsets) only');
      else if (excluded.has(spec.name)) this.hiddenAlways.set(spec.name, 'MCP_EXCLUDE_TOOLS (--exclude-tools) lists it');
      // The code tools stay on a read-only server: the programs they run are held to it call by call.
      else if (MCP_READ_ONLY && !meta && !this.codeTools.has(spec.name) && (!spec.annotations.readOnlyHint || tool.writes === true)) {
        this.hiddenAlways.set(spec.name, 'MCP_READ_ONLY=true hides it (it can change things)');
      } else if (meta || chosen.has(this.toolsetByTool.get(spec.name)!) || listedTools.includes(spec.name)) this.base.add(spec.name);
    }
    this.describeUnchosen(named, listedTools);
  }

  /**
   * Why the configuration hides a tool from a caller who enabled `enabled`; undefined when it is served. A
   * program (`reach` 'program') is held to the same selection, exclusions and read-only mode as a client without
   * code mode, and never reaches the code tools (a program cannot start another).
   */
  hiddenBy(tool: string, enabled: ReadonlySet<string> = EMPTY, reach: Reach = 'client'): string | undefined {
    const always = this.hiddenAlways.get(tool);
    if (always !== undefined) return always;
    if (reach === 'program') {
      if (this.codeTools.has(tool)) return 'a program cannot call the code tools (search_tools, execute)';
      if (this.codeMode && tool === ARTIFACT_READER) return undefined;
    } else if (this.codeMode) {
      return this.codeTools.has(tool) || tool === ARTIFACT_READER
        ? undefined
        : 'MCP_CODE_MODE=true (--code-mode) serves search_tools, execute and artifact_read only: call it from a program run by execute';
    }
    if (this.base.has(tool) || enabled.has(this.toolsetByTool.get(tool) ?? '')) return undefined;
    // artifact_read follows the tools that can spill: served while one of them is.
    if (tool === ARTIFACT_READER && [...this.spillers].some((s) => this.hiddenBy(s, enabled) === undefined)) return undefined;
    return this.unchosen.get(tool) ?? 'it is not selected';
  }

  /**
   * How a result that sends a caller (who enabled `enabled`) on to `tool` names it: the name alone when that
   * caller is served it, else the name and what would serve it (the toolset to enable, or the --toolsets name to
   * ask the operator for), so that no advice points at a tool the caller cannot call. A name the server does not
   * know is returned as it is. In code mode the tools a program reaches count as served.
   */
  advise(tool: string, enabled: ReadonlySet<string> = EMPTY): string {
    const set = this.toolsetByTool.get(tool);
    const hidden = this.hiddenBy(tool, enabled, this.codeMode ? 'program' : 'client');
    if (set === undefined || hidden === undefined) return tool;
    if (this.hiddenAlways.has(tool)) return `${tool} (not served here: ${hidden})`;
    return this.dynamic
      ? `${tool} (not served to you yet: call enable_toolset with toolset "${set}" first)`
      : `${tool} (not served here: the operator serves it by adding "${set}" to --toolsets, MCP_TOOLSETS)`;
  }

  /** The toolset a registered tool belongs to. */
  toolsetOfTool(tool: string): string | undefined {
    return this.toolsetByTool.get(tool);
  }

  private readonly plugins: ReadonlySet<string>;

  /**
   * The toolsets a name stands for, as MCP_TOOLSETS reads it (a toolset, a plugin's name for all of its
   * toolsets, `default`, `all`): what enable_toolset takes too. Empty for a name that is none of them.
   */
  toolsetsFor(name: string): string[] {
    return this.toolsetsNamed(name, this.plugins);
  }

  /** The toolsets a name in MCP_TOOLSETS stands for: one toolset, every toolset of a plugin, the default ones or all. */
  private toolsetsNamed(name: string, plugins: ReadonlySet<string>): string[] {
    // `all` is every toolset that reaches a vendor or an artifact; code mode's tools reach those same tools
    // another way (and answer programs well only with structured output), so they are chosen by name.
    if (name === 'all') return [...this.toolsets.keys()].filter((n) => n !== CODE_TOOLSET);
    if (name === 'default') return [...this.toolsets].filter(([, set]) => set.default).map(([n]) => n);
    if (this.toolsets.has(name)) return [name];
    return plugins.has(name) ? [...this.toolsets].filter(([, set]) => set.plugin === name).map(([n]) => n) : [];
  }

  private readonly unchosen = new Map<string, string>();
  /** Whether nothing was named: the default toolsets are served, of the vendors that have credentials. */
  readonly defaultSet: boolean;

  /**
   * The start-up account of a server that serves the default tools: which vendors it serves and why the others
   * are left out. Undefined when something was named (the operator chose) or every vendor has credentials.
   */
  defaultVendors(): { served: string[]; notServed: Record<string, string> } | undefined {
    if (!this.defaultSet || this.withoutCredentials.size === 0) return undefined;
    const vendors = new Set([...this.toolsets.values()].filter((set) => set.default).map((set) => set.plugin));
    const notServed = Object.fromEntries([...this.withoutCredentials].filter(([plugin]) => vendors.has(plugin)));
    return { served: [...vendors].filter((plugin) => !this.withoutCredentials.has(plugin)), notServed };
  }

  /** The reason given for each tool left out of the selection, naming what would select it. */
  private describeUnchosen(named: readonly string[], listedTools: readonly string[]): void {
    for (const [tool, set] of this.toolsetByTool) {
      if (this.base.has(tool) || this.hiddenAlways.has(tool)) continue;
      const how = this.dynamic ? ` (enable_toolset "${set}" serves it)` : '';
      const plugin = this.toolsets.get(set)?.plugin ?? '';
      const which =
        named.length === 0 && listedTools.length === 0
          ? this.dynamic
            ? `MCP_DYNAMIC_TOOLSETS=true starts with the toolset tools only`
            : this.withoutCredentials.has(plugin) && this.toolsets.get(set)?.default === true
              ? `the ${plugin} plugin has ${this.withoutCredentials.get(plugin)!}, so the default tools leave it out (configure them, or --toolsets ${plugin} serves it)`
              : `its toolset "${set}" is not one of the default toolsets (--toolsets ${set} or --toolsets all serves it)`
          : named.length > 0
            ? `MCP_TOOLSETS=${named.join(',')} does not include its toolset "${set}"${listedTools.length > 0 ? ' and MCP_TOOLS does not list it' : ''}`
            : `MCP_TOOLS=${listedTools.join(',')} does not list it`;
      this.unchosen.set(tool, which + how);
    }
  }
}

const EMPTY: ReadonlySet<string> = new Set();

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
