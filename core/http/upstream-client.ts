import { ToolError, isToolError } from '../errors/tool-error.js';
import { compose, type Layer } from '../flow/compose.js';
import type { AnyToolContext, InterceptContext } from '../plugin/tool-context.js';
import type {
  GraphqlOperation,
  PreparedRequest,
  Route,
  UpstreamBinding,
  UpstreamIdentity,
  UpstreamLinking,
  UpstreamResponse,
} from '../plugin/upstream-types.js';
import type { LinkedCredential } from '../identity/linked-accounts.js';
import { LinkError } from '../identity/link-error.js';
import { VENDOR_NAMES } from '../identity/acting-identity.js';
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
  /** This client acting as a person, per credential (one call's), so a call's requests share one. */
  private readonly actingClients = new WeakMap<LinkedCredential, UpstreamClient>();

  constructor(options: UpstreamClientOptions) {
    this.site = upstreamSite(options);
    this.identity = this.site.identity;
    this.preparer = new RequestPreparer(this.site);
  }

  get linking(): UpstreamLinking | undefined {
    const linking = this.site.options.linking;
    return linking === undefined ? undefined : { mode: linking.mode, vendor: linking.vendor, setting: linking.setting };
  }

  /**
   * This client acting with a person's linked account: the same options, their token, an identity of their own
   * (their login as the credential label, a fingerprint of the account: the HTTP cache never serves one person's
   * answer to another) and, for Atlassian Cloud, the API gateway as base URL. Never the service credential.
   */
  actingAs(credential: LinkedCredential): UpstreamClient {
    const options = this.site.options;
    const linking = options.linking;
    if (linking === undefined) throw new Error(`${options.label} does not act with linked accounts`);
    let client = this.actingClients.get(credential);
    if (client === undefined) {
      const who = credential.identity;
      client = this.withOptions({
        ...options,
        baseUrl: linking.baseUrl?.(credential) ?? options.baseUrl,
        auth: () => linking.auth(credential.accessToken.reveal()),
        missingCredentials: `The linked ${VENDOR_NAMES[linking.vendor]} account has no token.`,
        secretMaterial: () => `linked\0${linking.vendor}\0${who.accountId ?? who.login}`,
        credentialLabel: who.login,
        linking: undefined,
      });
      this.actingClients.set(credential, client);
    }
    return client;
  }

  /** A client like this one with other options (a subclass keeps what it adds: a site client its deployment). */
  protected withOptions(options: UpstreamClientOptions): UpstreamClient {
    return new UpstreamClient(options);
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

  hasCredentials(): boolean {
    return this.site.options.auth() !== undefined;
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
    const linking = this.site.options.linking;
    if (linking !== undefined && linking.mode !== 'service') {
      const credential = ctx.acting?.credential;
      if (credential !== undefined && credential.vendor === linking.vendor) return this.sendAs(credential, ctx, request, options);
      // The identity plugin refuses such a call with where to link before anything runs; this holds whoever calls.
      if (linking.mode === 'user') {
        throw new ToolError(
          'missing_credentials',
          `${this.site.options.label} acts here only with the calling person's linked ${VENDOR_NAMES[linking.vendor]} account (${linking.setting}=user), and this call has none; nothing was sent.`,
        );
      }
    }
    const prepared = this.preparer.preparedFor(ctx, request);
    if (options.rawBody !== undefined) this.preparer.checkRawBody(ctx, prepared, options.rawBody.contentType);
    const auth = this.site.options.auth();
    if (auth === undefined) throw new ToolError('missing_credentials', this.site.options.missingCredentials);
    const layers = ctx.interceptors.map((interceptor): Layer<Exchange, UpstreamResponse> => ({
      name: interceptor.name,
      run: (x, next) => {
        const exchange: InterceptContext = {
          identity: this.identity,
          tool: ctx,
          revalidate: (headers) => next({ extra: { ...x.extra, ...headers } }),
          lookup: (read) => this.lookup(ctx, read, auth),
        };
        return interceptor.run(prepared, exchange, () => next(x));
      },
    }));
    const response = await compose(layers, (x) => sendUpstream(ctx, this.site, prepared, { ...auth, ...x.extra }, options)).run({ extra: {} });
    // A GraphQL 200 with `errors` is an error, unless the tool declares its partial data useful.
    if (prepared.graphql !== undefined)
      refuseGraphqlErrors(response.body, response.status, this.site.options.label, prepared.graphql, ctx.graphqlPartialData === true);
    return response;
  }

  /** InterceptContext.lookup: a read of the server's own, straight to the network (the governor still admits it). */
  private lookup(
    ctx: AnyToolContext,
    read: { readonly path: string } | { readonly graphql: GraphqlOperation },
    auth: Record<string, string>,
  ): Promise<UpstreamResponse> {
    if ('graphql' in read) return sendUpstream(ctx, this.site, this.preparer.prepare({ graphql: read.graphql }), auth, {});
    const prefix = this.site.prefixInBase;
    const path = prefix !== '' && read.path.startsWith(`${prefix}/`) ? read.path.slice(prefix.length) : read.path;
    return sendUpstream(ctx, this.site, this.preparer.prepare({ method: 'GET', path }), auth, {});
  }

  /** Sends as the person; a 401 marks their link stale, and they are told to link again. */
  private async sendAs(credential: LinkedCredential, ctx: AnyToolContext, request: Route, options: SendOptions): Promise<UpstreamResponse> {
    try {
      return await this.actingAs(credential).send(ctx, request, options);
    } catch (error) {
      if (!isToolError(error) || error.status !== 401) throw error;
      await ctx.acting?.markStale?.(`${this.site.options.label} answered 401`);
      const sentence = new LinkError('link_stale', credential.vendor).message.replace(/\.$/, '');
      throw new ToolError('upstream_http_error', `${sentence}${ctx.acting?.whereToLink ?? ''}.`, { status: 401 });
    }
  }
}

/** What the interceptor onion passes inward: the headers a revalidation adds (If-None-Match). */
interface Exchange {
  extra: Record<string, string>;
}
