import type { ToolError } from '../errors/tool-error.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request as a tool describes it: relative to the vendor's API, before any normalisation. */
export interface UpstreamRequest {
  method: HttpMethod;
  /** Relative API path; checked for safety and prefixed by the vendor client. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as `JSON.stringify(body)` with `Content-Type: application/json`. */
  body?: unknown;
}

/** A request after the vendor client checked and normalised it: what is actually sent. */
export interface PreparedRequest {
  method: HttpMethod;
  /** The normalised path as sent, API prefix included (`/2.0/repositories/x`); what policy rules match. */
  path: string;
  url: URL;
  body?: string;
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
  /**
   * The credential as it travels (a Basic `base64(user:secret)` value, a bearer token): scrubbed from every
   * result like the secret settings themselves, since an upstream that echoes request headers hands it back.
   */
  secretForms?(): readonly string[];
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
