import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  /** The `/mcp` URL clients connect to. */
  url: string;
  /** Which backend each forwarded request went to, in order. */
  readonly routed: string[];
  close(): Promise<void>;
}

/**
 * A load balancer without sticky sessions: each request goes to the next backend in turn, whatever came
 * before it from the same client. A stateless MCP server must answer correctly behind it.
 */
export async function startRoundRobinProxy(backends: () => readonly string[]): Promise<RoundRobinProxy> {
  const routed: string[] = [];
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const targets = backends();
    const target = new URL(targets[next++ % targets.length]!);
    routed.push(target.origin);
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    routed,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
