import { isDeepStrictEqual } from 'node:util';
import { ToolError } from '../errors/tool-error.js';
import { analyseDocument, GraphqlDocumentError, printedDocument } from '../http/graphql-document.js';
import { operationInBody } from '../http/graphql-request.js';
import { safeApiPath } from '../http/path-guards.js';
import type { GraphqlFacts, GraphqlOperation, PreparedRequest, UpstreamIdentity } from '../plugin/upstream-types.js';
import type { FurtherRequest, RequestGate, UpstreamInterceptor } from '../plugin/tool-context.js';
import type { ToolDefinition } from '../plugin/contract.js';
import type { Call } from '../plugin/call.js';
import { undeclaredRefusal, pathPart } from './further-routes.js';
import { toGraphqlEndpoint } from './graphql-endpoint.js';
import { checkedOperation, describe } from './graphql-route.js';

/**
 * The outermost upstream interceptor of every call: what is sent is held to what was decided. The request the
 * validate stage prepared (and policy decided on) goes out as it is: its method, URL (query included) and body
 * bytes. Any other request the handler sends, the route's method and path with another query or body included,
 * passes the same checks first: the path check, the read-only check, the tool's declaration (a further request
 * it declares, its body included; for a GraphQL tool, a document it declares) and the policy decision, under
 * the identity of the client that sends it; a request to the GraphQL endpoint is read as the operation its body
 * carries, whatever the tool's kind. What fails them is refused as an error result and never sent. A
 * same-origin redirect hop is such a request too: the upstream client passes it to the same gate
 * (`ToolContext.gate`) before it follows the redirect.
 */
export function requestGate(call: Call, readOnlyServer: boolean): UpstreamInterceptor {
  const admit = furtherRequestGate(call, readOnlyServer);
  return {
    name: 'request-gate',
    run: (request, exchange, next) => {
      if (!isDeclared(request, call.prepared)) {
        admit({ method: request.method, path: request.path, search: request.url.search, body: request.body }, exchange.identity);
      }
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
    const graphqlTool = call.tool.spec.graphql !== undefined && graphql !== undefined;
    const what = graphql === undefined ? `${request.method} ${request.path}` : `${describe(graphql)} to ${request.method} ${request.path}`;
    // A REST tool's POST stays a write whatever it carries; a GraphQL tool's request is a read when it is a query.
    const write = graphqlTool ? graphql.operation === 'mutation' : request.method !== 'GET';
    const refused = writeRefusal(call.tool, { write, what, graphql: graphqlTool }, readOnlyServer);
    if (refused !== undefined) throw refused;
    if (request.redirectOf === undefined && !graphqlTool) {
      const undeclared = undeclaredRefusal(call, request, identity);
      if (undeclared !== undefined) throw undeclared;
    }
    call.decideFurther?.(graphql === undefined ? request : { ...request, graphql }, identity);
  };
}

/**
 * What a request to the tool's GraphQL endpoint asks for, read from the body that is sent (never from what the
 * handler says it sends), whatever the tool's kind; undefined for any other request. A GraphQL tool's document is
 * held to its declaration, and the route's own operation goes out only as prepared (not with other variables).
 */
function sentOperation(call: Call, request: FurtherRequest, identity: UpstreamIdentity, readOnlyServer: boolean): GraphqlFacts | undefined {
  const { tool } = call;
  // Only a POST runs an operation there: a GET is not read as GraphQL (asked first, no lookup needed).
  if (request.method !== 'POST' || !toGraphqlEndpoint(tool, request, identity)) return undefined;
  const refuse = (why: string): ToolError =>
    new ToolError(
      'tool_failed',
      `The ${tool.plugin} plugin's ${tool.spec.name} sent POST ${pathPart(request.path)}, its GraphQL endpoint, ${why}; it was refused and nothing was sent.`,
    );
  const operation = operationInBody(request.body);
  if (typeof operation === 'string') throw refuse(`but ${operation}`);
  const route = routeOperation(call);
  if (tool.spec.graphql === undefined) {
    try {
      return analyseDocument(operation.document, operation.operationName).facts;
    } catch (error) {
      if (!(error instanceof GraphqlDocumentError)) throw error;
      throw refuse(`with a GraphQL operation that is refused: ${error.message}`);
    }
  }
  const analysed = checkedOperation(tool, operation, { source: 'handler', readOnlyServer, routeDocument: route?.document });
  if (route !== undefined && analysed.canonical === route.document && (operation.operationName ?? null) === (route.operationName ?? null)) {
    if (!isDeepStrictEqual(operation.variables ?? {}, route.variables ?? {})) {
      throw refuse(
        `with its route's operation (${describe(analysed.facts)}) and other variables than the route the policy decided on; the route goes out as prepared (send ctx.route)`,
      );
    }
  }
  return analysed.facts;
}

/** The operation the call's prepared request carries to the GraphQL endpoint, its document printed; undefined for a call with none. */
function routeOperation(call: Call): GraphqlOperation | undefined {
  const prepared = call.prepared;
  if (prepared === undefined || prepared.method !== 'POST' || !toGraphqlEndpoint(call.tool, prepared)) return undefined;
  const operation = operationInBody(prepared.body);
  if (typeof operation === 'string') return undefined;
  return { ...operation, document: printedDocument(operation.document) ?? operation.document };
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
