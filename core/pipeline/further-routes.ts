import { isToolError, ToolError } from '../errors/tool-error.js';
import type { Call } from '../plugin/call.js';
import type { FurtherRequest } from '../plugin/tool-context.js';
import { FROM_UPSTREAM, type FurtherRoute, type ToolSpec } from '../plugin/tool-spec.js';
import type { UpstreamBinding, UpstreamIdentity } from '../plugin/upstream-types.js';
import { FOREIGN_CREDENTIAL } from '../http/upstream-client.js';
import { bodyMatches } from './declared-body.js';
import { DeclarationError } from './declared-wire.js';

/** A path without its query. */
export const pathPart = (path: string): string => path.split('?', 1)[0]!;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** A further route ready to match a request: its path as the tool's client sends it (API prefix included). */
interface FurtherMatcher {
  readonly declared: FurtherRoute;
  matches(request: FurtherRequest, identity: UpstreamIdentity, ownHost: string | undefined): boolean;
}

/** The matchers of a call's further routes, made once per call (a route computed from arguments is the call's own). */
const perCall = new WeakMap<object, readonly FurtherMatcher[]>();

/**
 * Refuses a request the tool does not declare: one that is neither its route as prepared (same method, path,
 * query and body: what the policy decided on) nor one of its `further` routes, body included. A bug of the
 * plugin, named; nothing is sent.
 */
export function undeclaredRefusal(call: Call, request: FurtherRequest, identity: UpstreamIdentity): ToolError | undefined {
  const ownHost = call.tool.upstream?.identity.host;
  let matchers = perCall.get(call.scope);
  if (matchers === undefined) perCall.set(call.scope, (matchers = furtherMatchers(call)));
  const samePath = matchers.filter((m) => m.matches(request, identity, ownHost));
  if (samePath.some((m) => bodyMatches(m.declared.body, request.body))) return undefined;
  const name = `The ${call.tool.plugin} plugin's ${call.tool.spec.name}`;
  const where = identity.host === ownHost ? '' : ` to ${identity.host}`;
  const sent = `${request.method} ${pathPart(request.path)}${where}`;
  if (samePath.length > 0) {
    // The body's values are the caller's arguments or an upstream's: never echoed, only whether it declares one.
    const declared = samePath
      .map((m) => `${describeRoute(m.declared)} ${m.declared.body === undefined ? 'without a body' : 'with its declared body'}`)
      .join(', ');
    return new ToolError(
      'tool_failed',
      `${name} sent ${sent} with ${request.body === undefined ? 'no body' : 'a body'}, which no further request it declares carries (it declares ${declared}); it was refused and nothing was sent. A further request declares its body in \`body\`, with FROM_UPSTREAM where a value comes from an earlier answer.`,
    );
  }
  const route = call.prepared;
  if (route !== undefined && identity.host === ownHost && request.method === route.method && pathPart(request.path) === pathPart(route.path)) {
    const other = [request.search !== undefined && request.search !== route.url.search ? 'query' : '', request.body !== route.body ? 'body' : '']
      .filter(Boolean)
      .join(' and ');
    return new ToolError(
      'tool_failed',
      `${name} sent ${sent}, its route's method and path, with another ${other || 'query or body'} than the route the policy decided on; it was refused and nothing was sent. The route goes out as prepared (send ctx.route); a tool declares any other request, a second page or the write a read resolved, in \`further\` on its spec, with its body.`,
    );
  }
  const declared = matchers.length === 0 ? 'it declares none' : `it declares ${matchers.map((m) => describeRoute(m.declared)).join(', ')}`;
  const own = route === undefined ? 'it has none' : `${route.method} ${pathPart(route.path)}`;
  return new ToolError(
    'tool_failed',
    `${name} sent ${sent}, which is neither its route (${own}) nor a further request it declares (${declared}); it was refused and nothing was sent. A tool declares what it may send beyond its route in \`further\` on its spec.`,
  );
}

function furtherMatchers(call: Call): FurtherMatcher[] {
  const { spec, upstream, plugin } = call.tool;
  try {
    const routes = typeof spec.further === 'function' ? spec.further(call.args as never, upstream) : (spec.further ?? []);
    return preparedFurther(routes, upstream);
  } catch (error) {
    if (!(error instanceof DeclarationError) && !isToolError(error)) throw error;
    throw new ToolError('tool_failed', `The ${plugin} plugin's ${spec.name} declares a further request that is refused: ${error.message}`);
  }
}

/** Start-up's check of a tool's fixed further routes: each well formed, and its path one the client can prepare. */
export function checkFurtherRoutes(spec: ToolSpec, upstream: UpstreamBinding | undefined): void {
  if (spec.further === undefined || typeof spec.further === 'function') return;
  if (!Array.isArray(spec.further))
    throw new DeclarationError('its further must be a list of { method, path } (or a function of the arguments that returns one).');
  try {
    preparedFurther(spec.further, upstream);
  } catch (error) {
    if (isToolError(error)) throw new DeclarationError(`its further path cannot be prepared by its client: ${error.message}`);
    throw error;
  }
}

function preparedFurther(routes: readonly FurtherRoute[], upstream: UpstreamBinding | undefined): FurtherMatcher[] {
  if (!Array.isArray(routes)) throw new DeclarationError('its further must be a list of { method, path }.');
  return routes.map((route, i) => {
    const where = `its further[${i}]`;
    if (route === null || typeof route !== 'object' || !METHODS.has(route.method)) {
      throw new DeclarationError(`${where} needs a method: one of GET, POST, PUT, PATCH, DELETE.`);
    }
    if (typeof route.path !== 'string' || !route.path.startsWith('/')) throw new DeclarationError(`${where}.path must be a path that starts with "/".`);
    if (typeof route.body === 'function' || (typeof route.body === 'symbol' && route.body !== FROM_UPSTREAM)) {
      throw new DeclarationError(`${where}.body must be the JSON body it sends (FROM_UPSTREAM where a value comes from an earlier answer).`);
    }
    const segments = route.path.split('/');
    if (segments.slice(0, -1).includes('**')) throw new DeclarationError(`${where}.path may hold "**" only as its last segment.`);
    if (route.host !== undefined) {
      if (typeof route.host !== 'string' || route.host === '') throw new DeclarationError(`${where}.host must be a host glob, such as "*.example.com".`);
      const host = globRegex(route.host);
      const path = segmentMatcher(route.path);
      // A host glob is for URLs an upstream hands out, sent without credentials: on other hosts, and on the tool's
      // own host too when sent so (a CircleCI server installation serves step output from its own host).
      const elsewhere = (identity: UpstreamIdentity, own: string | undefined): boolean => identity.host !== own || identity.credential === FOREIGN_CREDENTIAL;
      return {
        declared: route,
        matches: (r, identity, own) => r.method === route.method && elsewhere(identity, own) && host.test(identity.host) && path(r.path),
      };
    }
    // The pattern as the client sends a path: its API prefix and mapping applied, as to the route's path.
    const prepared = upstream === undefined ? route.path : upstream.prepare({ method: route.method, path: route.path }).path;
    const path = segmentMatcher(pathPart(prepared));
    return { declared: route, matches: (r, identity, own) => r.method === route.method && identity.host === own && path(r.path) };
  });
}

/** `*` is one whole segment, a last `**` any number of them; everything else is literal, as sent. */
function segmentMatcher(pattern: string): (path: string) => boolean {
  const wanted = pattern.split('/');
  const rest = wanted[wanted.length - 1] === '**';
  const fixed = rest ? wanted.slice(0, -1) : wanted;
  return (path) => {
    const got = pathPart(path).split('/');
    if (rest ? got.length < fixed.length : got.length !== fixed.length) return false;
    return fixed.every((segment, i) => (segment === '*' ? got[i] !== '' : segment === got[i]));
  };
}

function globRegex(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\/-]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
}

const describeRoute = (route: FurtherRoute): string => `${route.method} ${route.host === undefined ? '' : route.host}${route.path}`;
