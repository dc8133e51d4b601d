import { PROTOCOL_VERSION_META_KEY, ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { Kernel, UnknownToolError } from '../../core/kernel/kernel.js';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/identity/principal.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { answerInvalidParamsAsSuch } from './invalid-params.js';
import { sharedSchemaValidator } from './lazy-schema-validator.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { ENABLE_TOOLSET } from '../../core/kernel/tool-selection.js';
import { callOrigin } from './call-origin.js';

export interface McpServerOptions {
  /**
   * Tells the 2026-07-28 clients of this server's entry that the tool list changed (its `subscriptions/listen`
   * streams: createMcpHandler's `notify.toolsChanged`); 2025-era clients are told on the request's own channel.
   */
  toolsChanged?: () => void;
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
  const server = new Server(
    { name: SERVER_NAME, version: VERSION },
    { capabilities: { tools: { listChanged: kernel.dynamicToolsets } }, instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: sharedSchemaValidator },
  );

  // The kernel gates schemas per revision: a 2026-07-28 request names it in its `_meta` envelope, a 2025-era
  // connection negotiated it with `initialize`, a stateless 2025-era POST names it in its header.
  const revision = (envelope: Record<string, unknown> | undefined): string | undefined => {
    const named = envelope?.[PROTOCOL_VERSION_META_KEY];
    return typeof named === 'string' ? named : (server.getNegotiatedProtocolVersion() ?? options.protocolVersion);
  };

  const principalOf = (ctx: { http?: { authInfo?: { extra?: Record<string, unknown> } } }): Principal =>
    (ctx.http?.authInfo?.extra?.principal as Principal | undefined) ?? LOCAL_PRINCIPAL;

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
      const origin = callOrigin(server, ctx, request.params._meta);
      result = await kernel.call(request.params.name, request.params.arguments, principal, { signal: ctx.mcpReq.signal, protocolVersion, ...origin });
    } catch (error) {
      if (error instanceof UnknownToolError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
    // A toolset enabled: the caller's tool list changed (dynamic toolsets), which the protocol announces.
    if (toolsetsBefore !== undefined && result.isError !== true && (await kernel.enabledToolsets(principal)).size > toolsetsBefore) {
      await announceToolsChanged(server, ctx, options, (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] !== undefined);
    }
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

/**
 * `notifications/tools/list_changed` to the client that enabled a toolset: a 2025-era client on the request's
 * channel (stdio, or the POST's stream); a 2026-07-28 client through its `subscriptions/listen` stream, which
 * the entry owns (over stdio the pinned server publishes to it). Best effort: a client that cannot be told lists
 * the tools again when it next needs them.
 */
async function announceToolsChanged(
  server: Server,
  ctx: { mcpReq: { notify(n: { method: string }): Promise<void> } },
  options: McpServerOptions,
  modern: boolean,
): Promise<void> {
  try {
    if (!modern) await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' });
    else if (options.toolsChanged !== undefined) options.toolsChanged();
    else await server.sendToolListChanged();
  } catch {
    // Nobody is listening (no subscription open): nothing to tell.
  }
}
