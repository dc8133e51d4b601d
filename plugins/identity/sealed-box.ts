import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { VaultKey } from './vault-key.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Envelope encryption of one record's secrets: a fresh 32-byte data key per record encrypts them (AES-256-GCM),
 * and the vault key wraps the data key (AES-256-GCM too). Both carry `context` as additional authenticated
 * data (the record's vendor and principal), so a sealed record copied under another person's key does not
 * open. Rotating the vault key re-wraps the data key only: the sealed secrets themselves are not touched.
 */
export interface SealedSecrets {
  /** Id of the vault key that wrapped `dataKey`. */
  kid: string;
  /** The data key, wrapped: iv | tag | ciphertext, base64url. */
  dataKey: string;
  /** The secrets (JSON), encrypted under the data key: iv | tag | ciphertext, base64url. */
  secrets: string;
}

export function seal(plaintext: string, key: VaultKey, context: string): SealedSecrets {
  const dataKey = randomBytes(32);
  try {
    return {
      kid: key.id,
      dataKey: encrypt(key.bytes(), dataKey, wrapContext(key.id, context)),
      secrets: encrypt(dataKey, Buffer.from(plaintext, 'utf8'), context),
    };
  } finally {
    dataKey.fill(0);
  }
}

/** The plaintext, or undefined when `key` is not the one that sealed it or anything was changed. */
export function open(sealed: SealedSecrets, key: VaultKey, context: string): string | undefined {
  if (sealed.kid !== key.id) return undefined;
  const dataKey = decrypt(key.bytes(), sealed.dataKey, wrapContext(key.id, context));
  if (dataKey === undefined) return undefined;
  try {
    return decrypt(dataKey, sealed.secrets, context)?.toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}

/** The same sealed secrets with the data key wrapped by `next` instead of `current`; undefined if `current` does not open it. */
export function rewrap(sealed: SealedSecrets, current: VaultKey, next: VaultKey, context: string): SealedSecrets | undefined {
  if (sealed.kid !== current.id) return undefined;
  const dataKey = decrypt(current.bytes(), sealed.dataKey, wrapContext(current.id, context));
  if (dataKey === undefined) return undefined;
  try {
    return { kid: next.id, dataKey: encrypt(next.bytes(), dataKey, wrapContext(next.id, context)), secrets: sealed.secrets };
  } finally {
    dataKey.fill(0);
  }
}

function wrapContext(kid: string, context: string): string {
  return `data key\u0000${kid}\u0000${context}`;
}

function encrypt(key: Buffer, plaintext: Buffer, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function decrypt(key: Buffer, text: string, context: string): Buffer | undefined {
  try {
    const bytes = Buffer.from(text, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}
