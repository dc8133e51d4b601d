import type { ServerResponse } from 'node:http';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Logger } from '../../core/logging/logger.js';
import type { KernelView, RouteContribution, RouteHandler } from '../../core/plugin/contributions.js';
import { readPluginSpec, type PluginClass } from '../../core/plugin/metadata.js';
import type { HostCheck } from '../http/host-check.js';
import { readJsonBody } from '../http/json-body.js';
import type { Route } from '../http/route.js';
import { routeCaller, type Admission, type RouteCredentials } from './route-caller.js';

/** A route a plugin contributes, with the prefix it is mounted at. */
export interface DeclaredRoute {
  plugin: string;
  prefix: string;
  route: RouteContribution;
}

/** Paths the server answers itself: no plugin's prefix may be one of them or under one. */
const SERVER_PATHS = ['/mcp', '/healthz', '/metrics', '/artifacts', '/console', '/.well-known'];
const PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;

/**
 * The routes the plugins contribute (`@Plugin({ contributes: { routes } })`), each at its prefix: `/plugins/<name>`
 * unless it declares one. A prefix that is not a plain path, that is the server's own, or that lies inside another
 * route's (or holds one) stops the start, naming the plugins.
 */
export function declaredRoutes(plugins: readonly PluginClass[]): DeclaredRoute[] {
  const declared: DeclaredRoute[] = [];
  for (const cls of plugins) {
    const spec = readPluginSpec(cls);
    for (const route of spec?.contributes?.routes ?? []) {
      const prefix = route.prefix ?? `/plugins/${spec!.name}`;
      const where = `Plugin "${spec!.name}" contributes a route at ${JSON.stringify(prefix)}`;
      if (!PREFIX.test(prefix) || prefix.split('/').some((s) => s === '.' || s === '..'))
        throw new StartupError(`${where}: a prefix is a path such as /plugins/${spec!.name}, without a trailing slash, dots or a query.`);
      const taken = SERVER_PATHS.find((p) => overlaps(p, prefix));
      if (taken !== undefined) throw new StartupError(`${where}, which the server answers itself (${taken}): choose another prefix.`);
      if (route.auth === 'none' && route.adminToken === true)
        throw new StartupError(`${where} with auth: 'none' and adminToken: true: a route open to anyone reads no token; drop one of them.`);
      const other = declared.find((d) => overlaps(d.prefix, prefix));
      if (other !== undefined) throw new StartupError(`${where}, and plugin "${other.plugin}" one at ${other.prefix}: one of them must move.`);
      declared.push({ plugin: spec!.name, prefix, route });
    }
  }
  return declared;
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

export interface MountOptions {
  credentials: RouteCredentials;
  /** The names the server answers to: a request under another (a DNS-rebinding page) is refused first. */
  hostCheck: HostCheck;
  logger: Logger;
}

/** A declared route with its handler, made by the plugin's factory. */
export interface MountedRoute extends DeclaredRoute {
  handler: RouteHandler;
}

/** Loads each declared route (its module is imported now, by an HTTP server only) and serves them (servePluginRoutes). */
export async function mountPluginRoutes(declared: readonly DeclaredRoute[], kernel: KernelView, options: MountOptions): Promise<Route | undefined> {
  if (declared.length === 0) return undefined;
  // Visible in every start-up log: what anyone who reaches the server may call without a credential.
  for (const open of declared.filter((d) => d.route.auth === 'none'))
    options.logger.info({ plugin: open.plugin, prefix: open.prefix }, 'route admits requests without a bearer token (auth: none)');
  const mounted = await Promise.all(
    declared.map(async (d) => ({ ...d, handler: await (await d.route.load())({ kernel, logger: options.logger.child({ plugin: d.plugin }) }) })),
  );
  return servePluginRoutes(mounted, options);
}

/**
 * Serves the plugins' routes: the Host check, then the caller (route-caller.ts; nobody's for a route declared
 * `auth: 'none'`, which reads no header), then the plugin's handler. A
 * handler that throws is logged, naming its plugin, and answered 500 without the error's text.
 */
export function servePluginRoutes(mounted: readonly MountedRoute[], options: MountOptions): Route {
  const served = mounted.map((m) => ({
    ...m,
    admit:
      m.route.auth === 'none'
        ? async (): Promise<Admission> => ({ caller: { kind: 'anonymous' } })
        : routeCaller(options.credentials, { adminToken: m.route.adminToken ?? false, credentials: m.route.credentials }),
    logger: options.logger.child({ plugin: m.plugin }),
  }));
  return async (request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0]!;
    const found = served.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
    if (found === undefined) return false;
    if (!options.hostCheck.allows(request.headers.host)) {
      options.hostCheck.refuse(response, request.headers.host);
      return true;
    }
    const admission: Admission = await found.admit(request);
    if ('refused' in admission) {
      const { status, error, challenge } = admission.refused;
      if (challenge) response.setHeader('www-authenticate', `Bearer realm="${found.route.adminToken ? 'mcp-devtools-admin' : 'mcp-devtools'}"`);
      send(response, status, { error });
      return true;
    }
    try {
      await found.handler(
        {
          raw: request,
          method: request.method ?? 'GET',
          path,
          caller: admission.caller,
          readJson: async (maxBytes) => {
            const body = await readJsonBody(request, maxBytes);
            return body.ok ? body : { ok: false, message: body.message };
          },
        },
        response,
      );
    } catch (error) {
      found.logger.error({ err: error, path }, 'plugin route failed');
      if (!response.headersSent) send(response, 500, { error: `The route of plugin "${found.plugin}" failed; the server log has the details.` });
      else response.end();
    }
    return true;
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
