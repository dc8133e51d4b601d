import { createHash } from 'node:crypto';
import { StartupError, ToolError, isToolError } from '../errors/tool-error.js';
import { compose, type Layer } from '../flow/compose.js';
import type { AnyToolContext, InterceptContext } from '../plugin/tool-context.js';
import { MAX_BODY_DEPTH, parseBody, refuseTooDeep, type BodyExpectation } from './parse-body.js';
import { rateLimitRetryAfter } from './rate-limit.js';
import type { pooledRequest as PooledRequestFn } from './pooled-request.js';
import { parseJsonBytes, parsesInPieces } from './parse-json-bytes.js';
import { decodedTextBytes } from '../text/large-string.js';
import { bomLength, decodeBody, discardBody, readBodyCapped, readBytesCapped } from './read-body.js';
import { RequestDeadline } from './request-deadline.js';
import { RETRYABLE_STATUSES, backoffMs, networkErrorCode, sleep } from './retry-policy.js';
import { safeApiPath } from './path-guards.js';
import { EgressGuard, NO_EGRESS_ALLOWANCE, egressRefusalIn, type EgressAllowList } from './egress-guard.js';
import { unreachableMessage } from './connection-failure.js';
import { statusHint } from './status-hints.js';
import {
  isGraphqlRoute,
  type PreparedRequest,
  type Route,
  type UpstreamBinding,
  type UpstreamIdentity,
  type UpstreamLinking,
  type UpstreamRequest,
  type UpstreamResponse,
} from '../plugin/upstream-types.js';
import type { LinkedCredential } from '../identity/linked-accounts.js';
import { LinkError } from '../identity/link-error.js';
import { VENDOR_NAMES } from '../identity/acting-identity.js';
import { analyseDocument, GraphqlDocumentError } from './graphql-document.js';
import { DEFAULT_GRAPHQL_PATH, graphqlRequest, printedQuery } from './graphql-request.js';

export interface UpstreamClientOptions {
  /** Vendor name, as in policy rules and `_meta` (`github`, `jira`). */
  vendor: string;
  /** Shown in messages (`GitHub`, `Jira`). */
  label: string;
  /** Base URL; a path in it is kept (GitHub Enterprise Server's `/api/v3`). */
  baseUrl: string;
  /** The setting the base URL comes from, named when it is not a usable URL. */
  baseUrlSetting?: string;
  /** Auth headers, or undefined when the credential is not configured. */
  auth(): Record<string, string> | undefined;
  /** What to set when credentials are missing (`Set GITHUB_TOKEN ...`). */
  missingCredentials: string;
  /** The secret material, only hashed into the identity's fingerprint. */
  secretMaterial(): string;
  credentialLabel: string;
  environment: string;
  /** Headers sent with every request (Accept, API version, User-Agent). */
  headers?: Record<string, string>;
  /**
   * Vendor path rules after the generic safety checks: API prefixes, product boundaries. What it returns is
   * appended to the base URL, and is the path policy rules match (with `apiPrefix` before it, see there).
   */
  mapPath?(path: string): string;
  /**
   * The API prefix of the vendor's reference (`/api/v4` for GitLab) when the base URL holds it rather than
   * `mapPath` adding it. Policy rules then see it at the head of every path, as they do when `mapPath` adds it:
   * a rule on `/api/v4/projects/*` means the same whichever way a plugin keeps its prefix.
   */
  apiPrefix?: string;
  /** A path of the vendor's API that works (`/repos/OWNER/REPO`), suggested when a path argument is refused. */
  examplePath?: string;
  /** Where GraphQL routes are sent, relative to the base URL (default `/graphql`). */
  graphqlPath?: string;
  timeoutMs: number;
  /** The setting `timeoutMs` came from, named when a request times out (default MCP_REQUEST_TIMEOUT_MS). */
  timeoutSetting?: string;
  maxBytes: number;
  retries: number;
  /** How bodies are read unless a request says otherwise. */
  expect?: BodyExpectation;
  /**
   * MCP_EGRESS_ALLOW, parsed (transportLimitsFrom gives it): what a foreign request (a redirect to another
   * origin, every request of a `foreignOf` client) may reach besides public addresses and the vendor's own host.
   */
  egressAllow?: EgressAllowList;
  /**
   * The vendor's own base URL, on a client whose base URL came from an upstream's answer rather than from the
   * operator (the output URL CircleCI gives a step): every request it sends passes the egress guard, held to the
   * vendor's base URL (http only when that is http; its host reachable whatever its address).
   */
  foreignOf?: string;
  /**
   * The header the call's request id is sent in, to the vendor's origin only: `x-request-id` by default, false
   * for none. Vendors ignore a header they do not know; gateways and proxies in front of them log this one.
   */
  requestIdHeader?: string | false;
  /**
   * Linked accounts (`<VENDOR>_CREDENTIALS`): the mode and which account acts, how its token is sent, and where
   * (Atlassian Cloud's API gateway, by the site's cloud id). Absent: the service credential always acts.
   */
  linking?: UpstreamLinking & {
    auth(token: string): Record<string, string>;
    baseUrl?(credential: LinkedCredential): string;
  };
}

export interface SendOptions {
  expect?: BodyExpectation;
  /**
   * Follow a redirect to another origin, without credentials (GitHub's signed log URLs). Without it, a
   * cross-origin redirect is refused: a request never takes credentials off the vendor's origin.
   */
  followForeignRedirectWithoutAuth?: boolean;
  /** Keep a successful body as bytes (`body` is a Buffer, kind `bytes`): images and files, never decoded. */
  binary?: boolean;
  /** Send these bytes (a multipart upload) as the body, instead of the route's JSON body. */
  rawBody?: { contentType: string; bytes: Buffer };
  /**
   * A long download (a log, a diff): its body's bytes are reported as they arrive, of its Content-Length when
   * it has one (`ctx.progress`, with this message: `reading the log of job 42`).
   */
  progress?: string;
}

const MAX_REDIRECTS = 5;

/** The credential label policy rules see on a request that carries none to a URL an upstream handed out. */
export const FOREIGN_CREDENTIAL = 'signed URL';

/** The pooled undici client, loaded on the first upstream request (its own chunk: start-up does not load it). */
let pooled: Promise<typeof PooledRequestFn> | undefined;
const loadPooledRequest = (): Promise<typeof PooledRequestFn> => (pooled ??= import('./pooled-request.js').then((m) => m.pooledRequest));

/**
 * The HTTP client every vendor plugin uses: auth headers, path safety, origin pinning, timeouts, bounded
 * retries of idempotent GETs, rate-limit errors that say when to retry, and a response size cap enforced
 * while reading. Requests pass through the tool's interceptors (the HTTP cache) before the network.
 */
export class UpstreamClient implements UpstreamBinding {
  readonly identity: UpstreamIdentity;
  private readonly base: URL;
  /** `apiPrefix` when the base URL ends with it: put before each path policy rules see. */
  private readonly prefixInBase: string;
  /** What a foreign request of this client may reach (the egress guard, see egress-guard.ts). */
  private readonly egress: EgressGuard;
  /** The GraphQL endpoint's path, once mapped (see endpoint()). */
  private graphqlEndpoint: string | null | undefined;
  /** This client acting as a person, per credential (one call's), so a call's requests share one. */
  private readonly actingClients = new WeakMap<LinkedCredential, UpstreamClient>();

  constructor(private readonly options: UpstreamClientOptions) {
    this.base = parseBaseUrl(options.baseUrl, options.label, options.baseUrlSetting);
    const prefix = options.apiPrefix?.replace(/\/+$/, '') ?? '';
    this.prefixInBase = prefix !== '' && this.base.pathname.replace(/\/+$/, '').endsWith(prefix) ? prefix : '';
    const vendorBase = options.foreignOf === undefined ? this.base : parseBaseUrl(options.foreignOf, options.label, undefined);
    this.egress = new EgressGuard(vendorBase, options.egressAllow ?? NO_EGRESS_ALLOWANCE);
    // Hashed when first read (by the first call that keys shared state), not by every start for every vendor:
    // hashing loads node:crypto.
    const material = `${options.vendor}\0${this.base.href}\0${options.secretMaterial()}`;
    let fingerprint: string | undefined;
    this.identity = Object.freeze({
      vendor: options.vendor,
      credential: options.credentialLabel,
      host: this.base.host,
      environment: options.environment,
      get fingerprint(): string {
        return (fingerprint ??= createHash('sha256').update(material).digest('hex').slice(0, 32));
      },
    });
  }

  get linking(): UpstreamLinking | undefined {
    const linking = this.options.linking;
    return linking === undefined ? undefined : { mode: linking.mode, vendor: linking.vendor, setting: linking.setting };
  }

  /**
   * This client acting with a person's linked account: the same options, their token, an identity of their own
   * (their login as the credential label, a fingerprint of the account: the HTTP cache never serves one person's
   * answer to another) and, for Atlassian Cloud, the API gateway as base URL. Never the service credential.
   */
  actingAs(credential: LinkedCredential): UpstreamClient {
    const linking = this.options.linking;
    if (linking === undefined) throw new Error(`${this.options.label} does not act with linked accounts`);
    let client = this.actingClients.get(credential);
    if (client === undefined) {
      const who = credential.identity;
      client = this.withOptions({
        ...this.options,
        baseUrl: linking.baseUrl?.(credential) ?? this.options.baseUrl,
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
    return this.options.graphqlPath ?? DEFAULT_GRAPHQL_PATH;
  }

  /**
   * Checks and normalises a route. A GraphQL route becomes the POST of its operation to `graphqlPath`, with what
   * it asks for read from its document (which decides whether it may be retried); the request gate reads the
   * body again, as sent, and holds it to the tool's declaration.
   */
  prepare(request: Route): PreparedRequest {
    if (!isGraphqlRoute(request)) return this.prepareRest(request);
    const prepared = this.prepareRest(graphqlRequest(request.graphql, this.graphqlPath));
    try {
      prepared.graphql = analyseDocument(request.graphql.document, request.graphql.operationName).facts;
    } catch (error) {
      if (!(error instanceof GraphqlDocumentError)) throw error;
    }
    return prepared;
  }

  private prepareRest(request: UpstreamRequest): PreparedRequest {
    let path = safeApiPath(request.path, this.options.label, this.options.examplePath);
    if (this.options.mapPath) path = this.options.mapPath(path);
    const url = new URL(this.base.href.replace(/\/$/, '') + path + queryToAppend(path, request.query));
    if (url.origin !== this.base.origin) {
      throw new ToolError('invalid_path', `The path ${JSON.stringify(request.path)} would leave ${this.base.origin}; pass a relative API path.`);
    }
    const prepared: PreparedRequest = { method: request.method, path: this.prefixInBase + path, url };
    if (request.body !== undefined)
      prepared.body = JSON.stringify(request.method === 'POST' && path === this.endpoint() ? printedQuery(request.body) : request.body);
    return prepared;
  }

  /** The GraphQL endpoint's path as prepareRest maps it; null when the vendor's path rules refuse it. */
  private endpoint(): string | null {
    if (this.graphqlEndpoint === undefined) {
      try {
        const path = safeApiPath(this.graphqlPath, this.options.label);
        this.graphqlEndpoint = this.options.mapPath ? this.options.mapPath(path) : path;
      } catch {
        this.graphqlEndpoint = null;
      }
    }
    return this.graphqlEndpoint;
  }

  secretForms(): string[] {
    // Each header value whole, and without its scheme (`Basic `, `Bearer `, `token `): what an echo shows.
    return Object.values(this.options.auth() ?? {}).flatMap((value) => [value, value.replace(/^[A-Za-z]+\s+/, '')]);
  }

  /**
   * Sends a request through the tool's interceptors and the network. Error statuses throw ToolError. The
   * tool's route (`ctx.route`) goes out exactly as it was prepared before policy decided on it; any other
   * request is prepared here, and the request gate (the first interceptor) decides it before it is sent.
   */
  async send(ctx: AnyToolContext, request: Route, options: SendOptions = {}): Promise<UpstreamResponse> {
    const linking = this.options.linking;
    if (linking !== undefined && linking.mode !== 'service') {
      const credential = ctx.acting?.credential;
      if (credential !== undefined && credential.vendor === linking.vendor) return this.sendAs(credential, ctx, request, options);
      // The identity plugin refuses such a call with where to link before anything runs; this holds whoever calls.
      if (linking.mode === 'user') {
        throw new ToolError(
          'missing_credentials',
          `${this.options.label} acts here only with the calling person's linked ${VENDOR_NAMES[linking.vendor]} account (${linking.setting}=user), and this call has none; nothing was sent.`,
        );
      }
    }
    const prepared = this.preparedFor(ctx, request);
    if (options.rawBody !== undefined) this.checkRawBody(ctx, prepared, options.rawBody.contentType);
    const auth = this.options.auth();
    if (auth === undefined) throw new ToolError('missing_credentials', this.options.missingCredentials);
    const layers = ctx.interceptors.map((interceptor): Layer<Exchange, UpstreamResponse> => ({
      name: interceptor.name,
      run: (x, next) => {
        const exchange: InterceptContext = { identity: this.identity, tool: ctx, revalidate: (headers) => next({ extra: { ...x.extra, ...headers } }) };
        return interceptor.run(prepared, exchange, () => next(x));
      },
    }));
    return compose(layers, (x) => this.network(ctx, prepared, { ...auth, ...x.extra }, options)).run({ extra: {} });
  }

  /** Sends as the person; a 401 marks their link stale, and they are told to link again. */
  private async sendAs(credential: LinkedCredential, ctx: AnyToolContext, request: Route, options: SendOptions): Promise<UpstreamResponse> {
    try {
      return await this.actingAs(credential).send(ctx, request, options);
    } catch (error) {
      if (!isToolError(error) || error.status !== 401) throw error;
      await ctx.acting?.markStale?.(`${this.options.label} answered 401`);
      const sentence = new LinkError('link_stale', credential.vendor).message.replace(/\.$/, '');
      throw new ToolError('upstream_http_error', `${sentence}${ctx.acting?.whereToLink ?? ''}.`, { status: 401 });
    }
  }

  /**
   * Raw bytes (a multipart upload) go out in place of the body the request gate compared with what was decided,
   * so they may not be what a server reads as a decided body: a GraphQL operation, or JSON (which a tool sends
   * as its route's or further request's `body`, where it is held to the declaration).
   */
  private checkRawBody(ctx: AnyToolContext, prepared: PreparedRequest, contentType: string): void {
    const endpoint = this.endpoint();
    if (prepared.graphql !== undefined || ctx.prepared?.graphql !== undefined || (endpoint !== null && prepared.path === this.prefixInBase + endpoint)) {
      // The gate reads a GraphQL operation from the body it is shown: other bytes would go out undecided.
      throw new ToolError(
        'tool_failed',
        `A GraphQL request to ${this.options.label} carries its operation as its body; rawBody is refused and nothing was sent.`,
      );
    }
    if (/^application\/(?:[\w.+-]*\+)?(?:json|graphql)\b/i.test(contentType.trim())) {
      throw new ToolError(
        'tool_failed',
        `rawBody of ${contentType} for ${prepared.method} ${prepared.path} to ${this.options.label} is refused and nothing was sent: a JSON body is the request's \`body\` (the route's, or one a further request declares), so that what is sent is what was decided. rawBody carries other media, such as a multipart upload.`,
      );
    }
  }

  /** The route as the pipeline prepared it, when this client would prepare it the same way; else prepared now. */
  private preparedFor(ctx: AnyToolContext, request: Route): PreparedRequest {
    const declared = ctx.prepared;
    if (declared !== undefined && request === ctx.route && declared.url.href.startsWith(this.base.href.replace(/\/?$/, '/'))) return declared;
    return this.prepare(request);
  }

  private async network(ctx: AnyToolContext, request: PreparedRequest, auth: Record<string, string>, options: SendOptions): Promise<UpstreamResponse> {
    const started = performance.now();
    // Reads are retried (a GET, a GraphQL query); a write never is: it may have been done.
    const retries = request.method === 'GET' || request.graphql?.operation === 'query' ? this.options.retries : 0;
    // Loaded before the first request is timed: loading our own HTTP client is no part of the vendor's latency.
    await loadPooledRequest();
    try {
      for (let attempt = 0; ; attempt++) {
        // Each request the network sees is observed (timed, traced), a retry on its own; the request id and the
        // trace context go with the credentials: to the vendor's origin, never along a redirect elsewhere.
        const observed = ctx.observeRequest?.(request, this.identity, attempt);
        try {
          const response = await this.exchange(ctx, request, { ...auth, ...this.requestIdHeader(ctx), ...observed?.headers }, options);
          observed?.end({ status: response.status, headers: response.headers });
          if (attempt < retries && RETRYABLE_STATUSES.has(response.status)) {
            ctx.logger.debug({ vendor: this.options.vendor, status: response.status, attempt }, 'retrying upstream read');
            await sleep(backoffMs(attempt), ctx.signal);
            continue;
          }
          return this.accept(response, request, options.expect ?? this.options.expect ?? 'json');
        } catch (error) {
          const failure = this.asToolError(error, request, ctx.signal);
          observed?.end({ error: failure });
          if (attempt < retries && networkErrorCode(error) !== undefined && !ctx.signal.aborted) {
            ctx.logger.debug({ vendor: this.options.vendor, code: networkErrorCode(error), attempt }, 'retrying upstream read');
            await sleep(backoffMs(attempt), ctx.signal);
            continue;
          }
          throw failure;
        }
      }
    } finally {
      ctx.time('network', (performance.now() - started) * 1000);
    }
  }

  /** The call's request id under the header this vendor takes it in (X-Request-Id unless the client names another, or none). */
  private requestIdHeader(ctx: AnyToolContext): Record<string, string> {
    const header = this.options.requestIdHeader ?? 'x-request-id';
    return header === false || ctx.requestId === undefined ? {} : { [header]: ctx.requestId };
  }

  /**
   * One request, following same-origin redirects of reads (each checked as a path argument would be and
   * decided by the policy again) and foreign ones without credentials when allowed (each held to the egress
   * guard and decided by the policy too). A write is never redirected: the policy decided on the path the call
   * named, and a 307 would re-send its body elsewhere.
   */
  private async exchange(ctx: AnyToolContext, request: PreparedRequest, auth: Record<string, string>, options: SendOptions): Promise<RawResponse> {
    const deadline = new RequestDeadline(this.options.timeoutMs, () => new DOMException(`no answer within ${this.options.timeoutMs} ms`, 'TimeoutError'));
    const cancel = (): void => deadline.abort(ctx.signal.reason);
    if (ctx.signal.aborted) cancel();
    else ctx.signal.addEventListener('abort', cancel, { once: true });
    const signal = deadline.signal;
    try {
      let url = request.url;
      let withAuth = true;
      // A client whose base URL an upstream gave is guarded from its first request; any other from its first
      // foreign hop on. Guarded, each connection is judged where it is made (egress-connector.ts).
      let egress = this.options.foreignOf === undefined ? undefined : this.egress;
      const refused = egress?.refusalOf(url);
      if (refused !== undefined) {
        // The URL without its query, which may hold its signature.
        throw new ToolError('egress_refused', `${this.options.label}: ${request.method} ${url.origin}${url.pathname} is not sent: ${refused}.`);
      }
      for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
        const headers: Record<string, string> = { ...this.options.headers, ...(withAuth ? auth : {}) };
        if (request.body !== undefined || options.rawBody !== undefined) headers['content-type'] = options.rawBody?.contentType ?? 'application/json';
        const send = await loadPooledRequest();
        const response = await send(url, {
          method: request.method,
          headers,
          body: options.rawBody?.bytes ?? request.body,
          signal,
          ...(egress ? { egress } : {}),
        });
        const location = response.headers.get('location');
        const progress = options.progress;
        const onRead = progress === undefined ? undefined : (read: number, size?: number): void => ctx.progress(read, size, progress);
        if (options.binary && response.status < 300) {
          const bytes = await readBytesCapped(response, this.options.maxBytes, `The ${this.options.label} response`, ctx.bodyLease, deadline, onRead);
          return { status: response.status, statusText: response.statusText, headers: response.headers, text: '', bytes };
        }
        if (response.status < 300 && response.status !== 204) {
          const bytes = await readBytesCapped(response, this.options.maxBytes, `The ${this.options.label} response`, ctx.bodyLease, deadline, onRead);
          const textBytes = decodedTextBytes(bytes);
          if (ctx.bodyLease !== undefined) ctx.bodyLease.textBytes += textBytes;
          return rawResponse({ status: response.status, statusText: response.statusText, headers: response.headers }, bytes, textBytes);
        }
        if (response.status < 300 || response.status >= 400 || response.status === 304 || location === null) {
          const text = await readBodyCapped(response, this.options.maxBytes, `The ${this.options.label} response`, ctx.bodyLease, deadline);
          return { status: response.status, statusText: response.statusText, headers: response.headers, text };
        }
        discardBody(response);
        const target = new URL(location, url);
        if (withAuth && target.origin === this.base.origin) {
          this.decideRedirect(ctx, request, target, response.status);
        } else {
          this.decideForeignHop(ctx, request, target, response.status, options);
          withAuth = false;
          egress = this.egress;
        }
        url = target;
      }
      throw new ToolError('upstream_redirect_refused', `${this.options.label} redirected ${request.method} ${request.path} more than ${MAX_REDIRECTS} times.`);
    } finally {
      deadline.clear();
      ctx.signal.removeEventListener('abort', cancel);
    }
  }

  /**
   * A same-origin redirect is followed only as a new read of a path the call could have named itself: the hop
   * is a request the pipeline did not prepare, so after the client's own checks it passes the request gate
   * (path, read-only, policy) as a handler's further request does.
   */
  private decideRedirect(ctx: AnyToolContext, request: PreparedRequest, target: URL, status: number): void {
    const refuse = (why: string): never => {
      throw new ToolError(
        'upstream_redirect_refused',
        `${this.options.label} redirected ${request.method} ${request.path} to ${target.pathname}${target.search}; it is not followed: ${why}`,
        { status },
      );
    };
    if (request.method !== 'GET') refuse(WRITE_NOT_REDIRECTED);
    const basePath = this.base.pathname.replace(/\/$/, '');
    if (target.pathname !== basePath && !target.pathname.startsWith(`${basePath}/`)) refuse(`it is outside ${this.base.href}.`);
    let path: string;
    try {
      path = safeApiPath(target.pathname.slice(basePath.length) + target.search, this.options.label);
      if (this.options.mapPath) path = this.options.mapPath(path);
      path = this.prefixInBase + path;
    } catch (error) {
      return refuse(isToolError(error) ? error.message : String(error));
    }
    ctx.gate?.({ method: request.method, path, redirectOf: { method: request.method, path: request.path } }, this.identity);
  }

  /**
   * A redirect to another origin (or on from one) is followed only when the call asks for it, only for a read,
   * without credentials, to a URL the egress guard lets through, and as a further request the request gate
   * decides: policy rules see the vendor, the credential `signed URL` and the host it leads to.
   */
  private decideForeignHop(ctx: AnyToolContext, request: PreparedRequest, target: URL, status: number, options: SendOptions): void {
    const refuse = (code: 'upstream_redirect_refused' | 'egress_refused', why: string): never => {
      throw new ToolError(
        code,
        `${this.options.label} redirected ${request.method} ${request.path} to another origin (${target.origin}); it is not followed: ${why}`,
        {
          status,
        },
      );
    };
    if (!options.followForeignRedirectWithoutAuth || !/^https?:$/.test(target.protocol)) {
      throw new ToolError(
        'upstream_redirect_refused',
        `${this.options.label} redirected ${request.method} ${request.path} to another origin (${target.origin}); it is not followed, so credentials never leave ${this.base.origin}.`,
        { status },
      );
    }
    if (request.method !== 'GET') refuse('upstream_redirect_refused', WRITE_NOT_REDIRECTED);
    const why = this.egress.refusalOf(target);
    if (why !== undefined) refuse('egress_refused', `${why}.`);
    let path: string;
    try {
      path = safeApiPath(target.pathname + target.search, this.options.label);
    } catch (error) {
      return refuse('upstream_redirect_refused', isToolError(error) ? error.message : String(error));
    }
    ctx.gate?.({ method: request.method, path, redirectOf: { method: request.method, path: request.path } }, this.foreignIdentity(target));
  }

  /** Who a foreign hop is sent as: this vendor, no credential, the host it goes to. */
  private foreignIdentity(target: URL): UpstreamIdentity {
    const own = this.identity;
    return Object.freeze({
      vendor: own.vendor,
      credential: FOREIGN_CREDENTIAL,
      host: target.host,
      environment: own.environment,
      get fingerprint(): string {
        return own.fingerprint;
      },
    });
  }

  private accept(response: RawResponse, request: PreparedRequest, expect: BodyExpectation): UpstreamResponse {
    const { status, headers } = response;
    if (status >= 400) throw this.statusError(response, request);
    if (status === 304) return { status, headers, body: undefined, kind: 'empty', text: '' };
    if (response.bytes !== undefined) return { status, headers, body: response.bytes, kind: 'bytes', text: '' };
    const what = `${this.options.label} (${request.method} ${request.path})`;
    const big = response.big !== undefined && expect !== 'text' ? parseJsonBytes(response.big, bomLength(response.big)) : undefined;
    if (big !== undefined) {
      // Parsed from the bytes; the text is made only if something asks for it (the HTTP cache storing it).
      // The scan counted the brackets: the value is walked only when they could go past the limit.
      if (big.nesting > MAX_BODY_DEPTH) refuseTooDeep(big.value, status, what);
      return Object.defineProperty({ status, headers, body: big.value, kind: 'json' }, 'text', textOf(response)) as UpstreamResponse;
    }
    const { text } = response;
    const parsed = parseBody(status, headers.get('content-type'), text, expect, what);
    return { status, headers, text, ...parsed };
  }

  private statusError(response: RawResponse, request: PreparedRequest): ToolError {
    const { status, headers, text } = response;
    const limited = rateLimitRetryAfter(status, headers, Date.now());
    const what = `${this.options.label} answered ${status}${response.statusText ? ` ${response.statusText}` : ''} for ${request.method} ${request.path}`;
    if (limited !== undefined) {
      const when = limited.seconds === undefined ? 'Wait a minute before retrying' : `Retry after ${limited.seconds} seconds`;
      return new ToolError('upstream_rate_limited', `${what}: rate limit exceeded. ${when}.`, {
        status,
        upstreamBody: text,
        retryAfterSeconds: limited.seconds,
      });
    }
    const code = status >= 500 ? 'upstream_server_error' : 'upstream_http_error';
    return new ToolError(code, `${what}. ${statusHint(status, this.identity.credential)}`, { status, upstreamBody: text });
  }

  private asToolError(error: unknown, request: PreparedRequest, signal: AbortSignal): ToolError {
    if (isToolError(error)) return error;
    const egress = egressRefusalIn(error);
    if (egress !== undefined) {
      return new ToolError('egress_refused', `${this.options.label}: ${request.method} ${request.path} was not sent: ${egress.message}.`);
    }
    if (signal.aborted) return new ToolError('cancelled', `The ${this.options.label} request ${request.method} ${request.path} was cancelled.`);
    const name = (error as { name?: string })?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new ToolError(
        'upstream_timeout',
        `${this.options.label} did not answer ${request.method} ${request.path} within ${this.options.timeoutMs} ms (${this.options.timeoutSetting ?? 'MCP_REQUEST_TIMEOUT_MS'}). Try again, or ask for less.`,
      );
    }
    return new ToolError('upstream_unreachable', unreachableMessage(this.options.label, request, this.base.origin, error), { cause: error });
  }
}

const WRITE_NOT_REDIRECTED =
  'a write is never redirected, since the policy decided on the path the call named. Send it to the new path if that is the one meant.';

/** What the interceptor onion passes inward: the headers a revalidation adds (If-None-Match). */
interface Exchange {
  extra: Record<string, string>;
}

interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
  /** The body of a `binary` request. */
  bytes?: Buffer;
  /** A successful body that parsesInPieces: parsed from these bytes, `text` decoded only when read. */
  big?: Buffer;
}

/** A successful answer: a big body keeps its bytes and decodes its text only when asked; a small one is decoded now. */
function rawResponse(head: Pick<RawResponse, 'status' | 'statusText' | 'headers'>, bytes: Buffer, textBytes: number): RawResponse {
  if (!parsesInPieces(textBytes)) return { ...head, text: decodeBody(bytes) };
  return Object.defineProperty({ ...head, big: bytes }, 'text', textOf({ big: bytes })) as RawResponse;
}

/** An enumerable `text` that decodes a big body once, when first read (a spread copy reads it). */
function textOf(response: { big?: Buffer }): PropertyDescriptor {
  const bytes = response.big!;
  let text: string | undefined;
  return { enumerable: true, configurable: true, get: () => (text ??= decodeBody(bytes)) };
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

function parseBaseUrl(value: string, label: string, setting: string | undefined): URL {
  const given = setting === undefined ? `The ${label} base URL ${JSON.stringify(value)}` : `${setting}=${JSON.stringify(value)}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StartupError(`${given} is not a URL: give the ${label} API's base URL with its scheme, such as https://host.example.com.`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new StartupError(`${given} must be an http:// or https:// URL, not ${url.protocol}`);
  url.search = '';
  url.hash = '';
  return url;
}
