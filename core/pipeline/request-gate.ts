import { ToolError } from '../errors/tool-error.js';
import { operationInBody } from '../http/graphql-request.js';
import { safeApiPath } from '../http/path-guards.js';
import { isGraphqlRoute, type GraphqlFacts, type PreparedRequest, type UpstreamIdentity } from '../plugin/upstream-types.js';
import type { FurtherRequest, RequestGate, UpstreamInterceptor } from '../plugin/tool-context.js';
import type { ToolDefinition } from '../plugin/contract.js';
import type { Call } from '../plugin/call.js';
import { undeclaredRefusal, pathPart } from './further-routes.js';
import { checkedOperation, describe } from './graphql-route.js';

/**
 * The outermost upstream interceptor of every call: what is sent is held to what was decided. The request the
 * validate stage prepared (and policy decided on) goes out as it is. Any other request the handler sends
 * passes the same checks first: the path check, the read-only check, the tool's declaration (its route, or a
 * further request it declares; a GraphQL operation read from the body sent) and the policy decision, under the
 * identity of the client that sends it; what fails them is refused as an error result and never sent. A
 * same-origin redirect hop is such a request too: the upstream client passes it to the same gate
 * (`ToolContext.gate`) before it follows the redirect.
 */
export function requestGate(call: Call, readOnlyServer: boolean): UpstreamInterceptor {
  const admit = furtherRequestGate(call, readOnlyServer);
  return {
    name: 'request-gate',
    run: (request, exchange, next) => {
      if (!isDeclared(request, call.prepared)) admit({ method: request.method, path: request.path, body: request.body }, exchange.identity);
      return next();
    },
  };
}

/**
 * The one check of a request the pipeline did not prepare (a handler's further request, a redirect hop): the
 * path check, the read-only check, the declaration check (not for a redirect hop, which the vendor chose), then
 * the policy decision (which the audit record keeps).
 */
export function furtherRequestGate(call: Call, readOnlyServer: boolean): RequestGate {
  return (request, identity) => {
    // A client of another copy of this package prepared it: it gets the same path checks as the route had.
    safeApiPath(request.path, identity.vendor);
    const graphql = request.redirectOf === undefined ? sentOperation(call, request, identity, readOnlyServer) : undefined;
    const what = graphql === undefined ? `${request.method} ${request.path}` : `${describe(graphql)} to ${request.method} ${request.path}`;
    const write = graphql === undefined ? request.method !== 'GET' : graphql.operation === 'mutation';
    const refused = writeRefusal(call.tool, { write, what, graphql: graphql !== undefined }, readOnlyServer);
    if (refused !== undefined) throw refused;
    if (request.redirectOf === undefined && graphql === undefined) {
      const undeclared = undeclaredRefusal(call, request, identity);
      if (undeclared !== undefined) throw undeclared;
    }
    call.decideFurther?.(graphql === undefined ? request : { ...request, graphql }, identity);
  };
}

/**
 * What a GraphQL tool's request to its own endpoint asks for, read from the body that is sent (never from what
 * the handler says it sends); undefined for any other request.
 */
function sentOperation(call: Call, request: FurtherRequest, identity: UpstreamIdentity, readOnlyServer: boolean): GraphqlFacts | undefined {
  const endpoint = call.prepared;
  if (call.tool.spec.graphql === undefined || endpoint === undefined || request.method !== 'POST') return undefined;
  if (identity.host !== call.tool.upstream?.identity.host || pathPart(request.path) !== pathPart(endpoint.path)) return undefined;
  const operation = operationInBody(request.body);
  if (typeof operation === 'string') {
    throw new ToolError(
      'tool_failed',
      `The ${call.tool.plugin} plugin's ${call.tool.spec.name} sent POST ${request.path}, its GraphQL endpoint, but ${operation}; it was refused and nothing was sent.`,
    );
  }
  const route = call.route !== undefined && isGraphqlRoute(call.route) ? call.route.graphql.document : undefined;
  return checkedOperation(call.tool, operation, { source: 'handler', readOnlyServer, routeDocument: route });
}

/** The same request as the one prepared for the route: the same object, or the same method, URL and body. */
function isDeclared(request: PreparedRequest, declared: PreparedRequest | undefined): boolean {
  if (declared === undefined) return false;
  return request === declared || (request.method === declared.method && request.url.href === declared.url.href && request.body === declared.body);
}

/** A request as the read-only checks see it: whether it writes (a method but GET, a GraphQL mutation) and how to name it. */
export interface SentRequest {
  write: boolean;
  what: string;
  graphql: boolean;
}

/**
 * A write a tool may not send: anything but a read (a GET, a GraphQL query) from a tool annotated read-only, or
 * on a read-only server (MCP_READ_ONLY). The plugin is named: it is a bug in the plugin, and nothing was sent.
 */
export function writeRefusal(tool: ToolDefinition, sent: SentRequest, readOnlyServer: boolean): ToolError | undefined {
  if (!sent.write) return undefined;
  const { name, annotations } = tool.spec;
  const reads = sent.graphql ? 'queries' : 'GET requests';
  if (annotations.readOnlyHint) {
    return new ToolError(
      'tool_failed',
      `The ${tool.plugin} plugin's ${name} is annotated read-only (readOnlyHint: true) but tried to send ${sent.what}; it was refused and nothing was sent. A read-only tool sends ${reads} only.`,
    );
  }
  if (readOnlyServer) {
    return new ToolError(
      'tool_failed',
      `The ${tool.plugin} plugin's ${name} tried to send ${sent.what}, but MCP_READ_ONLY=true allows ${reads} only; it was refused and nothing was sent.`,
    );
  }
  return undefined;
}
