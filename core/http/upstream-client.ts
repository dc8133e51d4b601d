import { ToolError } from '../errors/tool-error.js';
import { compose, type Layer } from '../flow/compose.js';
import type { AnyToolContext, InterceptContext } from '../plugin/tool-context.js';
import type { PreparedRequest, Route, UpstreamBinding, UpstreamIdentity, UpstreamResponse } from '../plugin/upstream-types.js';
import { RequestPreparer } from './prepare-request.js';
import { sendUpstream } from './send-upstream.js';
import { refuseGraphqlErrors } from './graphql-answer.js';
import type { SendOptions, UpstreamClientOptions } from './upstream-options.js';
import { upstreamSite, type UpstreamSite } from './upstream-site.js';

export type { SendOptions, UpstreamClientOptions } from './upstream-options.js';
export { FOREIGN_CREDENTIAL } from './upstream-redirects.js';

/**
 * The HTTP client every vendor plugin uses: auth headers, path safety, origin pinning, timeouts, bounded
 * retries of idempotent GETs, rate-limit errors that say when to retry, and a response size cap enforced
 * while reading. Requests pass through the tool's interceptors (the HTTP cache) before the network.
 *
 * A facade over its parts, each a file with one job: prepare-request.ts (a route made into a request),
 * send-upstream.ts (the network: retries, deadline), upstream-redirects.ts (which redirects are followed, and
 * how), upstream-answer.ts (reading and accepting the body), upstream-errors.ts (what a failure says).
 */
export class UpstreamClient implements UpstreamBinding {
  readonly identity: UpstreamIdentity;
  private readonly site: UpstreamSite;
  private readonly preparer: RequestPreparer;

  constructor(options: UpstreamClientOptions) {
    this.site = upstreamSite(options);
    this.identity = this.site.identity;
    this.preparer = new RequestPreparer(this.site);
  }

  get graphqlPath(): string {
    return this.preparer.graphqlPath;
  }

  /**
   * Checks and normalises a route. A GraphQL route becomes the POST of its operation to `graphqlPath`, with what
   * it asks for read from its document (which decides whether it may be retried); the request gate reads the
   * body again, as sent, and holds it to the tool's declaration.
   */
  prepare(request: Route): PreparedRequest {
    return this.preparer.prepare(request);
  }

  secretForms(): string[] {
    // Each header value whole, and without its scheme (`Basic `, `Bearer `, `token `): what an echo shows.
    return Object.values(this.site.options.auth() ?? {}).flatMap((value) => [value, value.replace(/^[A-Za-z]+\s+/, '')]);
  }

  /**
   * Sends a request through the tool's interceptors and the network. Error statuses throw ToolError. The
   * tool's route (`ctx.route`) goes out exactly as it was prepared before policy decided on it; any other
   * request is prepared here, and the request gate (the first interceptor) decides it before it is sent.
   */
  async send(ctx: AnyToolContext, request: Route, options: SendOptions = {}): Promise<UpstreamResponse> {
    const prepared = this.preparer.preparedFor(ctx, request);
    if (options.rawBody !== undefined) this.preparer.checkRawBody(ctx, prepared, options.rawBody.contentType);
    const auth = this.site.options.auth();
    if (auth === undefined) throw new ToolError('missing_credentials', this.site.options.missingCredentials);
    const layers = ctx.interceptors.map((interceptor): Layer<Exchange, UpstreamResponse> => ({
      name: interceptor.name,
      run: (x, next) => {
        const exchange: InterceptContext = { identity: this.identity, tool: ctx, revalidate: (headers) => next({ extra: { ...x.extra, ...headers } }) };
        return interceptor.run(prepared, exchange, () => next(x));
      },
    }));
    const response = await compose(layers, (x) => sendUpstream(ctx, this.site, prepared, { ...auth, ...x.extra }, options)).run({ extra: {} });
    // A GraphQL 200 with `errors` is an error, unless the tool declares its partial data useful.
    if (prepared.graphql !== undefined)
      refuseGraphqlErrors(response.body, response.status, this.site.options.label, prepared.graphql, ctx.graphqlPartialData === true);
    return response;
  }
}

/** What the interceptor onion passes inward: the headers a revalidation adds (If-None-Match). */
interface Exchange {
  extra: Record<string, string>;
}
