import { ToolError } from '../errors/tool-error.js';
import { analyseDocument, GraphqlDocumentError } from '../http/graphql-document.js';
import { DEFAULT_GRAPHQL_PATH, operationInBody } from '../http/graphql-request.js';
import type { ToolDefinition } from '../plugin/tool-definition.js';
import type { GraphqlFacts, PreparedRequest, UpstreamBinding, UpstreamIdentity, UpstreamRequest } from '../plugin/upstream-types.js';
import { pathPart } from './further-routes.js';

/**
 * A client's GraphQL endpoint, whatever kind of tool sends to it: a POST there runs the operation its body
 * carries, so it is read as GraphQL (operation, root fields) for the read-only check and the policy, never
 * taken for the plain POST its method and path say. A REST tool whose route is `POST /graphql` is decided on
 * the mutation it carries like a GraphQL tool.
 */

/** Each client's endpoint path as sent (API prefix included), or null for a client whose paths cannot hold it. */
const endpoints = new WeakMap<UpstreamBinding, string | null>();

function endpointPath(upstream: UpstreamBinding): string | null {
  let path = endpoints.get(upstream);
  if (path === undefined) {
    try {
      path = pathPart(upstream.prepare({ method: 'POST', path: upstream.graphqlPath ?? DEFAULT_GRAPHQL_PATH }).path);
    } catch {
      // A product boundary refuses the path (`/graphql` is no Jira API path): that client has no such endpoint.
      path = null;
    }
    endpoints.set(upstream, path);
  }
  return path;
}

/** Whether a request goes to the GraphQL endpoint of the tool's own client: a POST to its path, on its host. */
export function toGraphqlEndpoint(tool: ToolDefinition, request: { method: string; path: string }, identity?: UpstreamIdentity): boolean {
  const upstream = tool.upstream;
  if (upstream === undefined || request.method !== 'POST') return false;
  if (identity !== undefined && identity.host !== upstream.identity.host) return false;
  return pathPart(request.path) === endpointPath(upstream);
}

/**
 * What a REST route to the GraphQL endpoint asks for, read from the body it carries before its document is
 * printed (so the byte bound counts what the caller wrote); undefined for a route to anywhere else. A body that
 * carries no operation, or one that does not parse, is refused with `invalid_graphql` before policy.
 */
export function restRouteOperation(tool: ToolDefinition, request: UpstreamRequest, prepared: PreparedRequest): GraphqlFacts | undefined {
  if (!toGraphqlEndpoint(tool, prepared)) return undefined;
  const where = `${tool.spec.name} sends ${prepared.method} ${pathPart(prepared.path)}, the GraphQL endpoint`;
  const operation = operationInBody(request.body === undefined ? undefined : JSON.stringify(request.body));
  if (typeof operation === 'string') {
    throw new ToolError(
      'invalid_graphql',
      `Invalid GraphQL for ${tool.spec.name}: ${where}, but ${operation}; a request there carries one operation, {query, variables}.`,
    );
  }
  try {
    return analyseDocument(operation.document, operation.operationName).facts;
  } catch (error) {
    if (!(error instanceof GraphqlDocumentError)) throw error;
    throw new ToolError('invalid_graphql', `Invalid GraphQL for ${tool.spec.name} (${where}): ${error.message}`);
  }
}
