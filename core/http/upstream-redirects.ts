import { ToolError, isToolError } from '../errors/tool-error.js';
import type { AnyToolContext } from '../plugin/tool-context.js';
import type { PreparedRequest, UpstreamIdentity } from '../plugin/upstream-types.js';
import type { EgressGuard } from './egress-guard.js';
import { safeApiPath } from './path-guards.js';
import type { SendOptions } from './upstream-options.js';
import type { UpstreamSite } from './upstream-site.js';

/** Redirects one request follows at most. */
export const MAX_REDIRECTS = 5;

/** The credential label policy rules see on a request that carries none to a URL an upstream handed out. */
export const FOREIGN_CREDENTIAL = 'signed URL';

const WRITE_NOT_REDIRECTED =
  'a write is never redirected, since the policy decided on the path the call named. Send it to the new path if that is the one meant.';

/**
 * Where one request of an exchange goes: its URL, whether it carries the credentials (only to the vendor's
 * origin, before any foreign hop), and the egress guard its connections pass (set from the first foreign hop
 * on, and from the start for a client whose base URL an upstream gave).
 */
export interface Hop {
  url: URL;
  withAuth: boolean;
  egress?: EgressGuard;
}

/** The first request of an exchange; a `foreignOf` client's URL the egress guard refuses is not sent at all. */
export function firstHop(site: UpstreamSite, request: PreparedRequest): Hop {
  const egress = site.options.foreignOf === undefined ? undefined : site.egress;
  const refused = egress?.refusalOf(request.url);
  if (refused !== undefined) {
    // The URL without its query, which may hold its signature.
    throw new ToolError('egress_refused', `${site.options.label}: ${request.method} ${request.url.origin}${request.url.pathname} is not sent: ${refused}.`);
  }
  return { url: request.url, withAuth: true, ...(egress && { egress }) };
}

/** Whether an answer is a redirect to follow (or refuse) rather than the answer: a 3xx other than 304, with a Location. */
export function isRedirect(status: number, location: string | null): location is string {
  return status >= 300 && status < 400 && status !== 304 && location !== null;
}

/**
 * The hop a redirect leads to, once decided: same-origin redirects of reads (each checked as a path argument
 * would be and decided by the policy again), foreign ones without credentials when the call allows them (each
 * held to the egress guard and decided by the policy too). A write is never redirected: the policy decided on
 * the path the call named, and a 307 would re-send its body elsewhere.
 */
export function nextHop(
  ctx: AnyToolContext,
  site: UpstreamSite,
  request: PreparedRequest,
  from: Hop,
  location: string,
  status: number,
  options: SendOptions,
): Hop {
  const target = new URL(location, from.url);
  if (from.withAuth && target.origin === site.base.origin) {
    decideRedirect(ctx, site, request, target, status);
    return { ...from, url: target };
  }
  decideForeignHop(ctx, site, request, target, status, options);
  return { url: target, withAuth: false, egress: site.egress };
}

export function tooManyRedirects(site: UpstreamSite, request: PreparedRequest): ToolError {
  return new ToolError('upstream_redirect_refused', `${site.options.label} redirected ${request.method} ${request.path} more than ${MAX_REDIRECTS} times.`);
}

/**
 * A same-origin redirect is followed only as a new read of a path the call could have named itself: the hop
 * is a request the pipeline did not prepare, so after the client's own checks it passes the request gate
 * (path, read-only, policy) as a handler's further request does.
 */
function decideRedirect(ctx: AnyToolContext, site: UpstreamSite, request: PreparedRequest, target: URL, status: number): void {
  const { base, options } = site;
  const refuse = (why: string): never => {
    throw new ToolError(
      'upstream_redirect_refused',
      `${options.label} redirected ${request.method} ${request.path} to ${target.pathname}${target.search}; it is not followed: ${why}`,
      { status },
    );
  };
  if (request.method !== 'GET') refuse(WRITE_NOT_REDIRECTED);
  const basePath = base.pathname.replace(/\/$/, '');
  if (target.pathname !== basePath && !target.pathname.startsWith(`${basePath}/`)) refuse(`it is outside ${base.href}.`);
  let path: string;
  try {
    path = safeApiPath(target.pathname.slice(basePath.length) + target.search, options.label);
    if (options.mapPath) path = options.mapPath(path);
    path = site.prefixInBase + path;
  } catch (error) {
    return refuse(isToolError(error) ? error.message : String(error));
  }
  ctx.gate?.({ method: request.method, path, redirectOf: { method: request.method, path: request.path } }, site.identity);
}

/**
 * A redirect to another origin (or on from one) is followed only when the call asks for it, only for a read,
 * without credentials, to a URL the egress guard lets through, and as a further request the request gate
 * decides: policy rules see the vendor, the credential `signed URL` and the host it leads to.
 */
function decideForeignHop(ctx: AnyToolContext, site: UpstreamSite, request: PreparedRequest, target: URL, status: number, options: SendOptions): void {
  const { label } = site.options;
  const refuse = (code: 'upstream_redirect_refused' | 'egress_refused', why: string): never => {
    throw new ToolError(code, `${label} redirected ${request.method} ${request.path} to another origin (${target.origin}); it is not followed: ${why}`, {
      status,
    });
  };
  if (!options.followForeignRedirectWithoutAuth || !/^https?:$/.test(target.protocol)) {
    throw new ToolError(
      'upstream_redirect_refused',
      `${label} redirected ${request.method} ${request.path} to another origin (${target.origin}); it is not followed, so credentials never leave ${site.base.origin}.`,
      { status },
    );
  }
  if (request.method !== 'GET') refuse('upstream_redirect_refused', WRITE_NOT_REDIRECTED);
  const why = site.egress.refusalOf(target);
  if (why !== undefined) refuse('egress_refused', `${why}.`);
  let path: string;
  try {
    path = safeApiPath(target.pathname + target.search, label);
  } catch (error) {
    return refuse('upstream_redirect_refused', isToolError(error) ? error.message : String(error));
  }
  ctx.gate?.({ method: request.method, path, redirectOf: { method: request.method, path: request.path } }, foreignIdentity(site.identity, target));
}

/** Who a foreign hop is sent as: this vendor, no credential, the host it goes to. */
function foreignIdentity(own: UpstreamIdentity, target: URL): UpstreamIdentity {
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
