import { elicitationOf } from './elicitation.js';
import {
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type LoggingLevel,
  type ServerCapabilities,
  type Transport,
} from '@modelcontextprotocol/server';
import { Kernel, UnknownToolError } from '../../core/kernel/kernel.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import type { Principal } from '../../core/identity/principal.js';
import { answerInvalidParamsAsSuch } from './invalid-params.js';
import { sharedSchemaValidator } from './lazy-schema-validator.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { callOrigin, principalOf } from './call-origin.js';
import { progressNotifier } from './progress-notifier.js';
import { artifactStoreOf, serveArtifactResources } from './resource-handlers.js';
import { connectionLogLevel, type ClientLogLevels } from './client-log-levels.js';
import type { ClientInfo } from '../../core/plugin/call.js';
import { detachableTools, isDetachable, startDetached, type DetachedCall } from './tasks/detached-call.js';
import { serveTaskMethods } from './tasks/task-handlers.js';
import { declaresTasks, TASKS_EXTENSION } from './tasks/task-record.js';
import { taskRunnerOf } from './tasks/task-runner.js';

/** `resource_link` content blocks came with revision 2025-06-18; older clients do not know them. */
const carriesResourceLinks = (revision: string | undefined): boolean => revision !== undefined && revision >= '2025-06-18';

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
  /**
   * The stdio connection's id, asked by each call: flow rules remember what this one session read (HTTP is
   * stateless: none).
   */
  connection?: () => string;
  /**
   * Where `logging/setLevel` keeps the level a 2025-era client asked for: per principal in the shared store
   * over stateless HTTP (principalLogLevels); by default on this server instance, one per stdio connection.
   */
  logLevels?: ClientLogLevels;
  /**
   * The client of a stateless 2025-era POST, which this server instance never saw `initialize` from: named by
   * the Mcp-Session-Id the server handed out, or the User-Agent (session-client.ts).
   */
  client?: ClientInfo;
}

/**
 * An MCP server (the SDK's low-level Server, which takes raw JSON Schema) answering from the kernel, for either
 * era: the serving entry (serveStdio, createMcpHandler) decides the era and marks the instance, `initialize`
 * negotiates a 2025-era revision. The principal comes from the transport's authentication
 * (`authInfo.extra.principal`), `local` without it.
 */
export function createMcpServer(kernel: Kernel, options: McpServerOptions = {}): Server {
  const artifacts = artifactStoreOf(kernel);
  const detachable = detachableTools(kernel);
  const server = new DevtoolsServer(
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

  // Conversion only: the request into a call (who, which revision, which ids, the client's channel), the kernel's
  // outcome into the result the client's era takes. What happens in what order is core/pipeline/pipeline.ts's.
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const principal = principalOf(ctx);
    const protocolVersion = revision(ctx.mcpReq.envelope);
    const progressToken = request.params._meta?.progressToken;
    const modern = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] !== undefined;
    const origin = callOrigin(server, ctx, request.params._meta, options.client, options.connection);
    const resourceLinks = artifacts !== undefined && carriesResourceLinks(protocolVersion);
    // The SDK's projection for the negotiated era (the kernel already withheld what this revision cannot carry);
    // the advertised schema matters only to a result with a structured value.
    const project = async (result: CallToolResult): Promise<CallToolResult> => {
      const advertised =
        result.structuredContent === undefined
          ? undefined
          : kernel.listTools(protocolVersion, await kernel.enabledToolsets(principal)).find((t) => t.name === request.params.name)?.outputSchema;
      return server.projectCallToolResult(result, advertised);
    };
    // A tool that waits (ci_wait), called by a client that declared the tasks extension: a task at once, the call
    // detached. It has no channel once its request is answered: no log messages, no elicitation (a confirmation
    // the policy wants goes to an approver, as for a client without elicitation).
    if (
      modern &&
      detachable.has(request.params.name) &&
      declaresTasks(ctx.mcpReq.envelope) &&
      (await isDetachable(kernel, request.params.name, request.params.arguments, principal))
    ) {
      const detached: DetachedCall = (signal, progress) =>
        kernel.call(request.params.name, request.params.arguments, principal, {
          signal,
          protocolVersion,
          progress,
          ...origin,
          channel: { notify: async () => {}, resourceLinks, toolsChanged: async () => {} },
        });
      return (await startDetached(taskRunnerOf(kernel), principal, detached, project)) as never;
    }
    // A link the person lacks, or a yes or no the policy wants, is asked past the model where the client can (elicitation.ts).
    const elicitation = elicitationOf(server, ctx, modern);
    let result: CallToolResult;
    try {
      result = await kernel.call(request.params.name, request.params.arguments, principal, {
        signal: ctx.mcpReq.signal,
        protocolVersion,
        // With `_meta.progressToken`, long calls report progress on the request's own channel (its SSE stream over HTTP).
        ...(progressToken !== undefined && {
          progress: progressNotifier(progressToken, { send: (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }) }),
        }),
        ...origin,
        channel: {
          logThreshold: await logThreshold(ctx, principal),
          notify: (notification) => ctx.mcpReq.notify(notification),
          resourceLinks,
          toolsChanged: () => announceToolsChanged(server, ctx, options, modern),
          ...(elicitation.askToOpen !== undefined && { askToOpen: elicitation.askToOpen }),
          ...(elicitation.askToConfirm !== undefined && { askToConfirm: elicitation.askToConfirm }),
          ...(elicitation.confirmByRetry !== undefined && { confirmByRetry: elicitation.confirmByRetry }),
        },
      });
    } catch (error) {
      if (error instanceof UnknownToolError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
    // A 2026-07-28 call that asked the person something (a URL to open, a yes or no) answers input_required; the client retries it.
    const asking = elicitation.inputRequired();
    if (asking !== undefined) return asking as never;
    return project(result);
  });
  serveTaskMethods(server, taskRunnerOf(kernel));
  return server;
}

/**
 * The SDK's Server, its answers to malformed params made -32602 on every transport it serves (invalid-params.ts),
 * advertising the tasks extension to 2026-07-28 clients (`server/discover`); the answer to a 2025-era
 * `initialize` is unchanged (those revisions have no per-request capabilities to declare the extension with).
 */
class DevtoolsServer extends Server {
  override async connect(transport: Transport): Promise<void> {
    answerInvalidParamsAsSuch(transport);
    await super.connect(transport);
  }

  override getCapabilities(): ServerCapabilities {
    const capabilities = super.getCapabilities();
    const revision = this.getNegotiatedProtocolVersion();
    if (revision === undefined || revision < '2026-07-28') return capabilities;
    return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
  }
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
