import Type from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { ToolsetDirectory } from '../../core/kernel/toolset-directory.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';

const Toolset = Type.String({ minLength: 1, description: 'A toolset name from list_toolsets, e.g. "github.actions".' });
const ToolsetArgs = Type.Object({ toolset: Toolset }, { additionalProperties: false });
const NoArgs = Type.Object({}, { additionalProperties: false });

/** What a caller reads these tools' annotations as: they change which tools it is served, nothing upstream. */
const LOCAL = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** What the toolset tools use of the ToolsetsPlugin instance: the server's toolset directory. */
export interface ToolsetsDeps {
  readonly directory: ToolsetDirectory;
}

export const LIST_TOOLSETS = defineTool({
  name: 'list_toolsets',
  title: 'List toolsets',
  description: 'The toolsets this server offers: name, what its tools do, how many, and whether you have them. Enable one with enable_toolset.',
  annotations: LOCAL,
  input: NoArgs,
  toolset: 'toolsets',
  handler: async (ctx, { directory }: ToolsetsDeps) => ({ value: { toolsets: await directory.list(ctx.principal) } }),
});

export const GET_TOOLSET_TOOLS = defineTool({
  name: 'get_toolset_tools',
  title: 'Tools of a toolset',
  description: 'The names of the tools a toolset serves.',
  annotations: LOCAL,
  input: ToolsetArgs,
  toolset: 'toolsets',
  handler: async (ctx, { directory }: ToolsetsDeps) => ({ value: { toolset: ctx.args.toolset, tools: await toolsNamed(ctx, directory) } }),
});

export const ENABLE_TOOLSET = defineTool({
  name: 'enable_toolset',
  title: 'Enable a toolset',
  description: "Serve a toolset's tools to you from now on (the tool list changes: list the tools again).",
  annotations: LOCAL,
  input: ToolsetArgs,
  toolset: 'toolsets',
  handler: async (ctx, { directory }: ToolsetsDeps) => {
    await toolsNamed(ctx, directory);
    const added = await directory.enable(ctx.principal, ctx.args.toolset);
    return { value: { toolset: ctx.args.toolset, enabled: true, added } };
  },
});

/** The toolset's tools, or the error that lists the toolsets there are. */
async function toolsNamed(ctx: ToolContext<typeof ToolsetArgs, undefined>, directory: ToolsetDirectory): Promise<string[]> {
  const tools = directory.toolsOf(ctx.args.toolset);
  if (tools === undefined || tools.length === 0) {
    const names = (await directory.list(ctx.principal)).map((t) => t.name);
    throw new ToolError(
      'invalid_arguments',
      `There is no toolset "${ctx.args.toolset}" on this server. Toolsets: ${names.join(', ')} (a plugin's name, such as "jira", stands for all of its toolsets).`,
    );
  }
  return tools;
}
