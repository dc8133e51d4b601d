import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'mcp-devtools console session credential';

/**
 * Seals a secret a console session keeps (an OIDC access token, to re-check it at the provider) with a key
 * derived from the session's cookie: the store holds only the cookie's SHA-256, from which the key cannot be
 * derived, so reading the store (a Redis dump, a SQLite file) gives no usable token. AES-256-GCM, so a sealed
 * value that was changed fails to open.
 */
export function sealSecret(secret: string, cookie: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(cookie), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The secret `sealSecret` sealed with this cookie, or undefined when it was sealed with another or changed. */
export function openSecret(sealed: string, cookie: string): string | undefined {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(cookie), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

function keyOf(cookie: string): Buffer {
  return Buffer.from(hkdfSync('sha256', cookie, Buffer.alloc(0), INFO, 32));
}
