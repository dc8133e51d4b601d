import type { ToolError } from '../errors/tool-error.js';
import type { ActingIdentity, LinkVendor } from '../identity/acting-identity.js';
import type { CredentialMode } from '../identity/credential-mode.js';
import type { LinkedCredential } from '../identity/linked-accounts.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request as a tool describes it: relative to the vendor's API, before any normalisation. */
export interface UpstreamRequest {
  method: HttpMethod;
  /** Relative API path; checked for safety and prefixed by the vendor client. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as `JSON.stringify(body)` with `Content-Type: application/json`. */
  body?: unknown;
  /** A REST request is never a GraphQL one: a route is one kind or the other (see GraphqlRoute). */
  graphql?: never;
}

/** A GraphQL operation as a tool sends it: the document, its variables, and which operation of the document runs. */
export interface GraphqlOperation {
  document: string;
  variables?: Record<string, unknown>;
  /** Needed when the document holds several operations. */
  operationName?: string;
}

/**
 * The route of a GraphQL tool: the operation it sends, as a POST of `{query, variables, operationName}` to its
 * client's GraphQL endpoint (`graphqlPath`). It has no method, path or body of its own: those are the endpoint's.
 */
export interface GraphqlRoute {
  graphql: GraphqlOperation;
  method?: never;
  path?: never;
  query?: never;
  body?: never;
}

/** What a tool's `route` computes: a REST request or a GraphQL operation, never a mix of both. */
export type Route = UpstreamRequest | GraphqlRoute;

export const isGraphqlRoute = (route: Route): route is GraphqlRoute => (route as GraphqlRoute).graphql !== undefined;

/** Subscriptions are refused: an MCP call is one request and one answer. */
export type GraphqlOperationType = 'query' | 'mutation';

/** What a GraphQL request asks for, as policy rules and the audit see it: never a variable value. */
export interface GraphqlFacts {
  readonly operation: GraphqlOperationType;
  /** The operation's name, null for an anonymous one. */
  readonly name: string | null;
  /** The root fields it selects, by field name (never an alias), fragments at the root expanded. */
  readonly fields: readonly string[];
}

/** A request after the vendor client checked and normalised it: what is actually sent. */
export interface PreparedRequest {
  method: HttpMethod;
  /** The normalised path as sent, API prefix included (`/2.0/repositories/x`); what policy rules match. */
  path: string;
  url: URL;
  body?: string;
  /** For a GraphQL operation: what it asks for, read from the document it carries. */
  graphql?: GraphqlFacts;
}

/** Which upstream identity acted: never a secret. Part of cache keys and of `_meta["mcp-devtools/upstream"]`. */
export interface UpstreamIdentity {
  vendor: string;
  /** A human label for the credential (the setting name by default, or a configured label). */
  credential: string;
  /** Host of the base URL. */
  host: string;
  /** Environment class of the credential (`production`, `staging`, ...), from settings. */
  environment: string;
  /** A one-way fingerprint of the secret, for keying shared state; never shown. */
  readonly fingerprint: string;
}

/** What the rate-limit governor knows of a client: whose budget it spends, and its name for messages. */
export interface RateLimitedSite {
  readonly identity: UpstreamIdentity;
  readonly label: string;
}

/**
 * The rate-limit governor (core/http/rate-governor.ts) as the upstream client consults it, around each attempt
 * of each request. Provided by the kernel to every call (ToolContext.rateLimits).
 */
export interface RateLimits {
  /** Before a request goes: waits while a reset or a pacing slot is near; throws `upstream_rate_limited` when far. */
  admit(site: RateLimitedSite, request: PreparedRequest, signal: AbortSignal): Promise<void>;
  /**
   * After an answer: records the budget it reports; when it is a rate-limit refusal that can be waited out,
   * waits and resolves true (send it again), otherwise false (the answer stands).
   */
  retryAfter(
    identity: UpstreamIdentity,
    request: PreparedRequest,
    answer: { status: number; headers: Headers; text: string },
    limitedRetries: number,
    signal: AbortSignal,
  ): Promise<boolean>;
}

/** `bytes`: a body read with SendOptions.binary, a Buffer. */
export type BodyKind = 'json' | 'text' | 'empty' | 'bytes';

export interface CacheInfo {
  hit: boolean;
  ageMs: number;
  fetchedAt: string;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, a string for text bodies, a Buffer for binary ones, undefined for an empty body. */
  body: unknown;
  kind: BodyKind;
  /** The raw body text (kept for caching and error reports). */
  text: string;
  /** Set by the HTTP cache when the response went through it. */
  cache?: CacheInfo;
}

/** What the kernel needs of a vendor plugin's client: its identity, and how it turns a route into a request. */
export interface UpstreamBinding {
  readonly identity: UpstreamIdentity;
  /** Checks and normalises a route (path safety, API prefix); throws `invalid_path` without any request. */
  prepare(request: UpstreamRequest): PreparedRequest;
  /** Where a GraphQL route is sent, relative to the base URL (default `/graphql`). */
  readonly graphqlPath?: string;
  /**
   * The credential as it travels (a Basic `base64(user:secret)` value, a bearer token): scrubbed from every
   * result like the secret settings themselves, since an upstream that echoes request headers hands it back.
   */
  secretForms?(): readonly string[];
  /** Whose credential acts for a caller (`<VENDOR>_CREDENTIALS`); absent: always the service credential. */
  readonly linking?: UpstreamLinking;
  /**
   * Whether the service credential is configured: false when every request would fail with
   * `missing_credentials` (a client that needs none answers true). Absent: unknown, taken as configured.
   */
  hasCredentials?(): boolean;
  /** This binding acting with a person's linked account: its own identity (and base URL, for Atlassian's gateway). */
  actingAs?(credential: LinkedCredential): UpstreamBinding;
}

/** What a vendor client says of linked accounts: which one acts for a caller, and whether it must. */
export interface UpstreamLinking {
  readonly mode: CredentialMode;
  /** The linked account that acts (`atlassian` for Jira Cloud, `jira-datacenter` for Jira Data Center). */
  readonly vendor: LinkVendor;
  /** The setting the mode comes from (`GITHUB_CREDENTIALS`), named in refusals. */
  readonly setting: string;
}

/**
 * Who acts upstream for one call, settled before its arguments are validated: the person's linked account
 * (with the binding that sends as them) or the service credential. Set by the identity plugin for a tool whose
 * client is in `user` or `user-or-service` mode; absent otherwise (the service credential acts).
 */
export interface CallActing {
  readonly identity: ActingIdentity;
  /** The linked account's credential; absent when the service credential acts. */
  readonly credential?: LinkedCredential;
  /** The tool's binding acting as the person (its requests are prepared with it); absent for the service credential. */
  readonly binding?: UpstreamBinding;
  /** The vendor answered 401 to the credential: the link is marked stale, so the person is told to link again. */
  markStale?(reason: string): Promise<void>;
  /** Where the person links again, as the end of the sentence that tells them to (` at https://...`). */
  readonly whereToLink?: string;
}

/** How one request sent to the network ended: the status that came back (its body read), or why none did. */
export type RequestEnd = { status: number; headers: Headers } | { error: ToolError };

/** What the kernel keeps of one request while it is on the network (its timing and span). */
export interface RequestObservation {
  /** Headers the request carries for the observer (the trace context, `traceparent`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Called once, when the request has ended; a second call is ignored. */
  end(how: RequestEnd): void;
}

/**
 * Told of each request an upstream client sends to the network, each retry its own (`attempt` counts them from 0):
 * what the upstream latency histogram, the HTTP client spans and the call line are made of.
 */
export type ObserveRequest = (request: PreparedRequest, identity: UpstreamIdentity, attempt: number) => RequestObservation;
