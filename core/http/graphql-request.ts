import type { GraphqlOperation, UpstreamRequest } from '../plugin/upstream-types.js';
import { printedDocument } from './graphql-document.js';

/** Where a GraphQL route goes when its client names no endpoint: the path nearly every GraphQL API serves. */
export const DEFAULT_GRAPHQL_PATH = '/graphql';

/**
 * A GraphQL operation as the request that carries it: a POST of `{query, variables, operationName}` as JSON to
 * the endpoint (GraphQL over HTTP). `operationName` is the route's, else `named`, the name the document gives the
 * operation it runs (servers log and trace by it); keys left undefined are not sent.
 */
export function graphqlRequest(operation: GraphqlOperation, endpoint: string = DEFAULT_GRAPHQL_PATH, named?: string | null): UpstreamRequest {
  return {
    method: 'POST',
    path: endpoint,
    body: { query: operation.document, variables: operation.variables, operationName: operation.operationName ?? named ?? undefined },
  };
}

/** The operation a request body carries, as a GraphQL server reads it; a string saying what is wrong when it carries none. */
export function operationInBody(body: string | undefined): GraphqlOperation | string {
  if (body === undefined) return 'it has no body';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'its body is not JSON';
  }
  const { query, variables, operationName } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof query !== 'string') return 'its body has no "query" string';
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return 'its "operationName" is not a string';
  return {
    document: query,
    ...(variables !== null && typeof variables === 'object' ? { variables: variables as Record<string, unknown> } : {}),
    ...(typeof operationName === 'string' ? { operationName } : {}),
  };
}

/**
 * A body POSTed to the GraphQL endpoint with its document printed from its syntax tree (by a GraphQL route or a
 * REST one): the vendor parses exactly what the request gate and the policy read, comments and layout dropped.
 */
export function printedQuery(body: unknown): unknown {
  const query = (body as { query?: unknown } | null)?.query;
  if (typeof query !== 'string' || Array.isArray(body)) return body;
  const printed = printedDocument(query);
  return printed === undefined ? body : { ...(body as object), query: printed };
}
