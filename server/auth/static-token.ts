import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a bearer token is `expected` (a token set in the environment: MCP_ADMIN_TOKEN, MCP_METRICS_TOKEN),
 * compared whole and in constant time, as SHA-256 digests of both. An empty `expected` matches nothing.
 */
export function staticToken(expected: string): (candidate: string) => boolean {
  const digest = sha256(expected);
  return (candidate) => expected !== '' && timingSafeEqual(sha256(candidate), digest);
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
