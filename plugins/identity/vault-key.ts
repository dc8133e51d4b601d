import { nodeCrypto } from '../../core/node-crypto.js';
import { readFileSync } from 'node:fs';
import { StartupError } from '../../core/errors/tool-error.js';

const KEY_BYTES = 32;
const hidden = new WeakMap<VaultKey, Buffer>();

/**
 * The key-encryption key of the vault (MCP_VAULT_KEY or MCP_VAULT_KEY_FILE): 32 bytes that wrap each record's
 * data key. Its `id` is a fingerprint (an HMAC of a fixed text under the key, 8 bytes), kept beside every record
 * to tell at once which key sealed it; it reveals nothing of the key. The bytes are not a property, so the
 * object prints and serialises as its id only.
 */
export class VaultKey {
  readonly id: string;

  constructor(bytes: Buffer) {
    if (bytes.length !== KEY_BYTES) throw new TypeError(`A vault key is ${KEY_BYTES} bytes (got ${bytes.length}).`);
    hidden.set(this, Buffer.from(bytes));
    this.id = nodeCrypto().createHmac('sha256', bytes).update('mcp-devtools vault key id').digest('hex').slice(0, 16);
  }

  /** The key's bytes, for the cipher only. */
  bytes(): Buffer {
    return hidden.get(this)!;
  }

  toString(): string {
    return `VaultKey(${this.id})`;
  }

  toJSON(): string {
    return this.toString();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/**
 * Reads a key written as 64 hex digits or as base64 (standard or URL-safe, padded or not) of 32 bytes. `source`
 * names the setting in the error, which never repeats the value.
 */
export function parseVaultKey(text: string, source: string): VaultKey {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return new VaultKey(Buffer.from(value, 'hex'));
  if (/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return new VaultKey(bytes);
  }
  throw new StartupError(
    `${source} must be 32 random bytes written as 64 hex digits or as base64 (make one with: openssl rand -base64 32); the value given is neither.`,
  );
}

/** The vault key from the settings: MCP_VAULT_KEY, else the file MCP_VAULT_KEY_FILE names; undefined when neither is set. */
export function readVaultKey(settings: { MCP_VAULT_KEY?: string; MCP_VAULT_KEY_FILE?: string }): VaultKey | undefined {
  const inline = settings.MCP_VAULT_KEY ?? '';
  const file = settings.MCP_VAULT_KEY_FILE ?? '';
  if (inline !== '' && file !== '') throw new StartupError('Set MCP_VAULT_KEY or MCP_VAULT_KEY_FILE, not both: they name the same key.');
  if (inline !== '') return parseVaultKey(inline, 'MCP_VAULT_KEY');
  if (file === '') return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new StartupError(
      `MCP_VAULT_KEY_FILE=${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); give a file holding the vault key.`,
    );
  }
  return parseVaultKey(text, `MCP_VAULT_KEY_FILE (${file})`);
}
