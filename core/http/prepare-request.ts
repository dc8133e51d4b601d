import { ToolError } from '../errors/tool-error.js';
import type { AnyToolContext } from '../plugin/tool-context.js';
import { isGraphqlRoute, type GraphqlFacts, type PreparedRequest, type Route, type UpstreamRequest } from '../plugin/upstream-types.js';
import { analyseDocument, GraphqlDocumentError } from './graphql-document.js';
import { DEFAULT_GRAPHQL_PATH, graphqlRequest, printedQuery } from './graphql-request.js';
import { safeApiPath } from './path-guards.js';
import type { UpstreamSite } from './upstream-site.js';

/**
 * The first part of a request: a route made into the URL it goes to and the path policy rules see, checked
 * as a path argument (no leaving the base URL), its body serialized once; and the checks on what a request
 * may carry before anything is sent.
 */
export class RequestPreparer {
  /** The GraphQL endpoint's path, once mapped (see endpoint()). */
  private graphqlEndpoint: string | null | undefined;

  constructor(private readonly site: UpstreamSite) {}

  get graphqlPath(): string {
    return this.site.options.graphqlPath ?? DEFAULT_GRAPHQL_PATH;
  }

  /**
   * Checks and normalises a route. A GraphQL route becomes the POST of its operation to `graphqlPath`, with what
   * it asks for read from its document (which decides whether it may be retried); the request gate reads the
   * body again, as sent, and holds it to the tool's declaration.
   */
  prepare(request: Route): PreparedRequest {
    if (!isGraphqlRoute(request)) return this.prepareRest(request);
    let facts: GraphqlFacts | undefined;
    try {
      facts = analyseDocument(request.graphql.document, request.graphql.operationName).facts;
    } catch (error) {
      if (!(error instanceof GraphqlDocumentError)) throw error;
    }
    // The operation's name goes with it when the document names one, as GraphQL servers expect.
    const prepared = this.prepareRest(graphqlRequest(request.graphql, this.graphqlPath, facts?.name));
    if (facts !== undefined) prepared.graphql = facts;
    return prepared;
  }

  /** The route as the pipeline prepared it, when this client would prepare it the same way; else prepared now. */
  preparedFor(ctx: AnyToolContext, request: Route): PreparedRequest {
    const declared = ctx.prepared;
    const under = (base: URL | undefined): boolean => base !== undefined && declared!.url.href.startsWith(base.href.replace(/\/?$/, '/'));
    if (declared !== undefined && request === ctx.route && (under(this.site.base) || under(this.site.graphqlBase))) return declared;
    return this.prepare(request);
  }

  /**
   * Raw bytes (a multipart upload) go out in place of the body the request gate compared with what was decided,
   * so they may not be what a server reads as a decided body: a GraphQL operation, or JSON (which a tool sends
   * as its route's or further request's `body`, where it is held to the declaration).
   */
  checkRawBody(ctx: AnyToolContext, prepared: PreparedRequest, contentType: string): void {
    const { label } = this.site.options;
    const endpoint = this.endpoint();
    if (prepared.graphql !== undefined || ctx.prepared?.graphql !== undefined || (endpoint !== null && prepared.path === this.site.prefixInBase + endpoint)) {
      // The gate reads a GraphQL operation from the body it is shown: other bytes would go out undecided.
      throw new ToolError('tool_failed', `A GraphQL request to ${label} carries its operation as its body; rawBody is refused and nothing was sent.`);
    }
    if (/^application\/(?:[\w.+-]*\+)?(?:json|graphql)\b/i.test(contentType.trim())) {
      throw new ToolError(
        'tool_failed',
        `rawBody of ${contentType} for ${prepared.method} ${prepared.path} to ${label} is refused and nothing was sent: a JSON body is the request's \`body\` (the route's, or one a further request declares), so that what is sent is what was decided. rawBody carries other media, such as a multipart upload.`,
      );
    }
  }

  private prepareRest(request: UpstreamRequest): PreparedRequest {
    const { base, graphqlBase, options } = this.site;
    let path = safeApiPath(request.path, options.label, options.examplePath);
    if (options.mapPath) path = options.mapPath(path);
    const sentUnder = graphqlBase !== undefined && path.split('?', 1)[0] === this.endpoint() ? graphqlBase : base;
    const url = new URL(sentUnder.href.replace(/\/$/, '') + path + queryToAppend(path, request.query));
    if (url.origin !== base.origin) {
      throw new ToolError('invalid_path', `The path ${JSON.stringify(request.path)} would leave ${base.origin}; pass a relative API path.`);
    }
    const prepared: PreparedRequest = { method: request.method, path: this.site.prefixInBase + path, url };
    if (request.body !== undefined)
      prepared.body = JSON.stringify(request.method === 'POST' && path === this.endpoint() ? printedQuery(request.body) : request.body);
    return prepared;
  }

  /** The GraphQL endpoint's path as prepareRest maps it; null when the vendor's path rules refuse it. */
  private endpoint(): string | null {
    if (this.graphqlEndpoint === undefined) {
      const { options } = this.site;
      try {
        const path = safeApiPath(this.graphqlPath, options.label);
        this.graphqlEndpoint = options.mapPath ? options.mapPath(path) : path;
      } catch {
        this.graphqlEndpoint = null;
      }
    }
    return this.graphqlEndpoint;
  }
}

/**
 * The `query` of a request as URLSearchParams serialises it, after `&` when the path already carries a query and
 * `?` otherwise. The path's own query is left as written (re-serialising it would turn `%20` into `+` and change
 * what the vendor receives), which is also how the Atlassian reference servers build their URLs.
 */
function queryToAppend(path: string, query: UpstreamRequest['query']): string {
  const entries = Object.entries(query ?? {}).flatMap(([key, value]): Array<[string, string]> => (value === undefined ? [] : [[key, String(value)]]));
  if (entries.length === 0) return '';
  return (path.includes('?') ? '&' : '?') + new URLSearchParams(entries).toString();
}
