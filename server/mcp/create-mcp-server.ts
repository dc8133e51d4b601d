import { PROTOCOL_VERSION_META_KEY, ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { Kernel, UnknownToolError } from '../../core/kernel/kernel.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { answerInvalidParamsAsSuch } from './invalid-params.js';
import { sharedSchemaValidator } from './lazy-schema-validator.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { ENABLE_TOOLSET } from '../../core/kernel/tool-selection.js';
import { progressNotifier } from './progress-notifier.js';
import { principalOf } from './principal-of.js';
import { artifactStoreOf, serveArtifactResources } from './resource-handlers.js';
import { carriesResourceLinks, withArtifactLinks } from './artifact-links.js';

export interface McpServerOptions {
  /**
   * The revision a request names when nothing else negotiated one: the `MCP-Protocol-Version` header of a
   * stateless Streamable HTTP POST from a 2025-era client (each POST gets a fresh server that saw no `initialize`).
   */
  protocolVersion?: string;
}

/**
 * An MCP server (the SDK's low-level Server, which takes raw JSON Schema) answering from the kernel, for either
 * era: the serving entry (serveStdio, createMcpHandler) decides the era and marks the instance, `initialize`
 * negotiates a 2025-era revision. The principal comes from the transport's authentication
 * (`authInfo.extra.principal`), `local` without it.
 */
export function createMcpServer(kernel: Kernel, options: McpServerOptions = {}): Server {
  const artifacts = artifactStoreOf(kernel);
  const server = new Server(
    { name: SERVER_NAME, version: VERSION },
    {
      capabilities: { tools: { listChanged: kernel.dynamicToolsets }, ...(artifacts && { resources: {} }) },
      instructions: SERVER_INSTRUCTIONS,
      jsonSchemaValidator: sharedSchemaValidator,
    },
  );
  if (artifacts !== undefined) serveArtifactResources(server, artifacts);

  // The kernel gates schemas per revision: a 2026-07-28 request names it in its `_meta` envelope, a 2025-era
  // connection negotiated it with `initialize`, a stateless 2025-era POST names it in its header.
  const revision = (envelope: Record<string, unknown> | undefined): string | undefined => {
    const named = envelope?.[PROTOCOL_VERSION_META_KEY];
    return typeof named === 'string' ? named : (server.getNegotiatedProtocolVersion() ?? options.protocolVersion);
  };

  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const enabled = await kernel.enabledToolsets(principalOf(ctx));
    return { tools: kernel.listTools(revision(ctx.mcpReq.envelope), enabled) as never };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const principal = principalOf(ctx);
    const protocolVersion = revision(ctx.mcpReq.envelope);
    // enable_toolset changes what this caller is served: compared before and after, to announce it.
    const toolsetsBefore = request.params.name === ENABLE_TOOLSET ? (await kernel.enabledToolsets(principal)).size : undefined;
    let result: CallToolResult;
    try {
      // With `_meta.progressToken`, long calls report progress on the request's own channel (its SSE stream over HTTP).
      const progress = progressNotifier(request.params._meta?.progressToken, {
        send: (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }),
      });
      result = await kernel.call(request.params.name, request.params.arguments, principal, { signal: ctx.mcpReq.signal, protocolVersion, progress });
    } catch (error) {
      if (error instanceof UnknownToolError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
    // A toolset enabled: the caller's tool list changed (dynamic toolsets), which the protocol announces.
    if (toolsetsBefore !== undefined && result.isError !== true && (await kernel.enabledToolsets(principal)).size > toolsetsBefore) {
      await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' }).catch(() => {});
    }
    // The artifacts it names, as resources too (for clients of a revision that has resource links).
    if (artifacts !== undefined && carriesResourceLinks(protocolVersion)) result = await withArtifactLinks(result, principal, artifacts);
    // The SDK's projection for the negotiated era (the kernel already withheld what this revision cannot carry);
    // the advertised schema matters only to a result with a structured value.
    const advertised =
      result.structuredContent === undefined
        ? undefined
        : kernel.listTools(protocolVersion, await kernel.enabledToolsets(principal)).find((t) => t.name === request.params.name)?.outputSchema;
    return server.projectCallToolResult(result, advertised);
  });
  answerInvalidParamsAsSuch(server);
  return server;
}
