import type { IncomingMessage, ServerResponse } from 'node:http';

/** A route of the HTTP server beside /mcp: answers the request and returns true, or returns false when it is not its. */
export type Route = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/** The first route that answers, for the HTTP transport's one `routes` hook. */
export function anyOf(...routes: ReadonlyArray<Route | undefined>): Route {
  const present = routes.filter((r): r is Route => r !== undefined);
  return async (request, response) => {
    for (const route of present) if (await route(request, response)) return true;
    return false;
  };
}
