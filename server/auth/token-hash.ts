import { createHash } from 'node:crypto';

/** How a bearer token is stored in MCP_AUTH_TOKENS_FILE: the SHA-256 of its UTF-8 bytes, in lowercase hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
