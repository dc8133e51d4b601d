import { ToolError } from '../errors/tool-error.js';
import { safeApiPath } from '../http/path-guards.js';
import type { PreparedRequest } from '../plugin/upstream-types.js';
import type { RequestGate, UpstreamInterceptor } from '../plugin/tool-context.js';
import type { ToolDefinition } from '../plugin/contract.js';
import type { Call } from '../plugin/call.js';

/**
 * The outermost upstream interceptor of every call: what is sent is held to what was decided. The request the
 * validate stage prepared (and policy decided on) goes out as it is. Any other request the handler sends
 * passes the same checks first: the path check, the read-only check (by method) and the policy decision,
 * under the identity of the client that sends it; what fails them is refused as an error result and never
 * sent. A same-origin redirect hop is such a request too: the upstream client passes it to the same gate
 * (`ToolContext.gate`) before it follows the redirect.
 */
export function requestGate(call: Call, readOnlyServer: boolean): UpstreamInterceptor {
  const admit = furtherRequestGate(call, readOnlyServer);
  return {
    name: 'request-gate',
    run: (request, exchange, next) => {
      if (!isDeclared(request, call.prepared)) admit(request, exchange.identity);
      return next();
    },
  };
}

/**
 * The one check of a request the pipeline did not prepare (a handler's further request, a redirect hop): the
 * path check, the read-only check by method, then the policy decision (which the audit record keeps).
 */
export function furtherRequestGate(call: Call, readOnlyServer: boolean): RequestGate {
  return (request, identity) => {
    // A client of another copy of this package prepared it: it gets the same path checks as the route had.
    safeApiPath(request.path, identity.vendor);
    const refused = writeRefusal(call.tool, request.method, readOnlyServer, `${request.method} ${request.path}`);
    if (refused !== undefined) throw refused;
    call.decideFurther?.(request, identity);
  };
}

/** The same request as the one prepared for the route: the same object, or the same method, URL and body. */
function isDeclared(request: PreparedRequest, declared: PreparedRequest | undefined): boolean {
  if (declared === undefined) return false;
  return request === declared || (request.method === declared.method && request.url.href === declared.url.href && request.body === declared.body);
}

/**
 * A write a tool may not send: any method but GET from a tool annotated read-only, or on a read-only server
 * (MCP_READ_ONLY decides by method). The plugin is named: it is a bug in the plugin, and nothing was sent.
 */
export function writeRefusal(tool: ToolDefinition, method: string, readOnlyServer: boolean, what: string): ToolError | undefined {
  if (method === 'GET') return undefined;
  const { name, annotations } = tool.spec;
  if (annotations.readOnlyHint) {
    return new ToolError(
      'tool_failed',
      `The ${tool.plugin} plugin's ${name} is annotated read-only (readOnlyHint: true) but tried to send ${what}; it was refused and nothing was sent. A read-only tool sends GET requests only.`,
    );
  }
  if (readOnlyServer) {
    return new ToolError(
      'tool_failed',
      `The ${tool.plugin} plugin's ${name} tried to send ${what}, but MCP_READ_ONLY=true allows GET requests only; it was refused and nothing was sent.`,
    );
  }
  return undefined;
}
