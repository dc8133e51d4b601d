import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now, for what takes a fixed port (a Redis, MCP_METRICS_PORT). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
