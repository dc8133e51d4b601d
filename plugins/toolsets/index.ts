import { inject } from 'tsyringe';
import Type from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { ToolsetDirectory } from '../../core/kernel/toolset-directory.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';

const Toolset = Type.String({ minLength: 1, description: 'A toolset name from list_toolsets, e.g. "github.actions".' });
const ToolsetArgs = Type.Object({ toolset: Toolset }, { additionalProperties: false });
const NoArgs = Type.Object({}, { additionalProperties: false });

/** What a caller reads these tools' annotations as: they change which tools it is served, nothing upstream. */
const LOCAL = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * Dynamic toolsets (MCP_DYNAMIC_TOOLSETS, as github-mcp-server's `--dynamic-toolsets`): a server starts with these
 * three tools only, and a caller enables the toolsets it needs, keeping its tools/list small. The server announces
 * `notifications/tools/list_changed` when `enable_toolset` served new tools (server/mcp). Without the setting the
 * three are never served.
 */
@Plugin({
  name: 'toolsets',
  version: '1.0.0',
  toolsets: { toolsets: { description: 'List and enable toolsets (served with --dynamic-toolsets only).', default: false } },
})
export class ToolsetsPlugin {
  constructor(@inject(TOKENS.Toolsets) private readonly directory: ToolsetDirectory) {}

  @Tool({
    name: 'list_toolsets',
    title: 'List toolsets',
    description: 'The toolsets this server offers: name, what its tools do, how many, and whether you have them. Enable one with enable_toolset.',
    annotations: LOCAL,
    input: NoArgs,
    toolset: 'toolsets',
  })
  async listToolsets(ctx: ToolContext<typeof NoArgs, undefined>): Promise<ToolOutput> {
    return { value: { toolsets: await this.directory.list(ctx.principal) } };
  }

  @Tool({
    name: 'get_toolset_tools',
    title: 'Tools of a toolset',
    description: 'The names of the tools a toolset serves.',
    annotations: LOCAL,
    input: ToolsetArgs,
    toolset: 'toolsets',
  })
  async getToolsetTools(ctx: ToolContext<typeof ToolsetArgs, undefined>): Promise<ToolOutput> {
    return { value: { toolset: ctx.args.toolset, tools: await this.toolsNamed(ctx) } };
  }

  @Tool({
    name: 'enable_toolset',
    title: 'Enable a toolset',
    description: "Serve a toolset's tools to you from now on (the tool list changes: list the tools again).",
    annotations: LOCAL,
    input: ToolsetArgs,
    toolset: 'toolsets',
  })
  async enableToolset(ctx: ToolContext<typeof ToolsetArgs, undefined>): Promise<ToolOutput> {
    await this.toolsNamed(ctx);
    const added = await this.directory.enable(ctx.principal, ctx.args.toolset);
    return { value: { toolset: ctx.args.toolset, enabled: true, added } };
  }

  /** The toolset's tools, or the error that lists the toolsets there are. */
  private async toolsNamed(ctx: ToolContext<typeof ToolsetArgs, undefined>): Promise<string[]> {
    const tools = this.directory.toolsOf(ctx.args.toolset);
    if (tools === undefined || tools.length === 0) {
      const names = (await this.directory.list(ctx.principal)).map((t) => t.name);
      throw new ToolError('invalid_arguments', `There is no toolset "${ctx.args.toolset}" on this server. Toolsets: ${names.join(', ')}.`);
    }
    return tools;
  }
}
