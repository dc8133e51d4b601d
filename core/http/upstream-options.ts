import type { BodyExpectation } from './parse-body.js';
import type { EgressAllowList } from './egress-guard.js';
import type { UpstreamLinking } from '../plugin/upstream-types.js';
import type { LinkedCredential } from '../identity/linked-accounts.js';

/** How a vendor plugin configures its UpstreamClient (upstream-client.ts). */
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
  /**
   * The base URL `graphqlPath` is under when it is not the REST base URL, on the same origin: GitHub Enterprise
   * Server serves REST under `/api/v3` and GraphQL at `/api/graphql`. Policy rules still see `graphqlPath`.
   */
  graphqlBaseUrl?: string;
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

/** How one `send` reads its answer and follows redirects. */
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
