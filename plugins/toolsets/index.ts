import { inject } from 'tsyringe';
import type { ToolsetDirectory } from '../../core/kernel/toolset-directory.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { ENABLE_TOOLSET, GET_TOOLSET_TOOLS, LIST_TOOLSETS, type ToolsetsDeps } from './toolset-tools.js';

/**
 * Dynamic toolsets (MCP_DYNAMIC_TOOLSETS, as github-mcp-server's `--dynamic-toolsets`): a server starts with these
 * three tools only (toolset-tools.ts), and a caller enables the toolsets it needs, keeping its tools/list small.
 * The server announces `notifications/tools/list_changed` when `enable_toolset` served new tools (server/mcp).
 * Without the setting the three are never served.
 */
@Plugin({
  name: 'toolsets',
  version: '1.0.0',
  toolsets: { toolsets: { description: 'List and enable toolsets (served with --dynamic-toolsets only).', default: false } },
  tools: [LIST_TOOLSETS, GET_TOOLSET_TOOLS, ENABLE_TOOLSET],
})
export class ToolsetsPlugin implements ToolsetsDeps {
  constructor(@inject(TOKENS.Toolsets) readonly directory: ToolsetDirectory) {}
}
