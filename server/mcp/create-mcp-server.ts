import {
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type LoggingLevel,
} from '@modelcontextprotocol/server';
import { Kernel, UnknownToolError } from '../../core/kernel/kernel.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import type { Principal } from '../../core/identity/principal.js';
import { answerInvalidParamsAsSuch } from './invalid-params.js';
import { sharedSchemaValidator } from './lazy-schema-validator.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { ENABLE_TOOLSET } from '../../core/kernel/tool-selection.js';
import { callOrigin } from './call-origin.js';
import { progressNotifier } from './progress-notifier.js';
import { principalOf } from './principal-of.js';
import { artifactStoreOf, serveArtifactResources } from './resource-handlers.js';
import { carriesResourceLinks, withArtifactLinks } from './artifact-links.js';
import { connectionLogLevel, type ClientLogLevels } from './client-log-levels.js';
import { callMessages } from './call-messages.js';

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
  /** The stdio connection's id: flow rules remember what this one session read (HTTP is stateless: none). */
  connection?: string;
  /**
   * Where `logging/setLevel` keeps the level a 2025-era client asked for: per principal in the shared store
   * over stateless HTTP (principalLogLevels); by default on this server instance, one per stdio connection.
   */
  logLevels?: ClientLogLevels;
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
      capabilities: { tools: { listChanged: kernel.dynamicToolsets }, logging: {}, ...(artifacts && { resources: {} }) },
      instructions: SERVER_INSTRUCTIONS,
      jsonSchemaValidator: sharedSchemaValidator,
    },
  );
  if (artifacts !== undefined) serveArtifactResources(server, artifacts);
  // 2025 era only (2026-07-28 removed the method; each request names its level in `_meta` instead).
  const logLevels = options.logLevels ?? connectionLogLevel();
  server.setRequestHandler('logging/setLevel', async (request, ctx) => {
    await logLevels.set(principalOf(ctx), request.params.level);
    return {};
  });
  const logThreshold = async (ctx: { mcpReq: { envelope?: Record<string, unknown> } }, principal: Principal): Promise<LoggingLevel | undefined> =>
    ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined
      ? (ctx.mcpReq.envelope[LOG_LEVEL_META_KEY] as LoggingLevel | undefined)
      : logLevels.get(principal);

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
    const messages = callMessages(request.params.name, await logThreshold(ctx, principal), (notification) => ctx.mcpReq.notify(notification));
    await messages.started();
    const started = performance.now();
    let result: CallToolResult;
    try {
      const origin = callOrigin(server, ctx, request.params._meta, options.connection);
      // With `_meta.progressToken`, long calls report progress on the request's own channel (its SSE stream over HTTP).
      const progress = progressNotifier(request.params._meta?.progressToken, {
        send: (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }),
      });
      result = await kernel.call(request.params.name, request.params.arguments, principal, {
        signal: ctx.mcpReq.signal,
        protocolVersion,
        progress,
        ...origin,
      });
    } catch (error) {
      if (error instanceof UnknownToolError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
    await messages.ended(result, performance.now() - started);
    // A toolset enabled: the caller's tool list changed (dynamic toolsets), which the protocol announces.
    if (toolsetsBefore !== undefined && result.isError !== true && (await kernel.enabledToolsets(principal)).size > toolsetsBefore) {
      await announceToolsChanged(server, ctx, options, (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] !== undefined);
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
