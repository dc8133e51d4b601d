import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { createClient } from '@keyv/redis';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { SecretText } from '../../../core/identity/secret-text.js';
import { VaultKey } from '../../../plugins/identity/vault-key.js';
import type { NewLink } from '../../../plugins/identity/vault-record.js';
import { canary } from '../canaries.js';
import { leakAudit } from '../leak-audit/leak-audit.js';

export function newVaultKey(): VaultKey {
  return new VaultKey(randomBytes(32));
}

/** A link as a flow would hand it over, with canary tokens (the suite-wide leak check looks for them everywhere). */
export function canaryLink(login: string, extra: Partial<NewLink> = {}): NewLink & { access: string; refresh: string } {
  const access = canary('gho_');
  const refresh = canary('ghr_');
  return {
    tokens: { accessToken: new SecretText(access), refreshToken: new SecretText(refresh) },
    login,
    accountId: `id-${login}`,
    scopes: ['repo'],
    access,
    refresh,
    ...extra,
  };
}

/** Every write to `store` is scanned by the suite-wide leak check, as the kernel taps do for a kernel's store. */
export function auditedStore(store: KeyValueStore): KeyValueStore {
  const set = store.set.bind(store);
  store.set = (namespace, key, value, ttlMs) => {
    leakAudit.storeWrite(namespace, value);
    return set(namespace, key, value, ttlMs);
  };
  const replaceIf = store.replaceIf.bind(store);
  store.replaceIf = (namespace, key, expected, next, ttlMs) => {
    leakAudit.storeWrite(namespace, next);
    return replaceIf(namespace, key, expected, next, ttlMs);
  };
  return store;
}

/** The SQLite database's bytes as they are on disk (the file, its WAL and shared memory), one byte per character. */
export function sqliteBytes(file: string): string {
  return [file, `${file}-wal`, `${file}-shm`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
}

/** Every key of a deployment in Redis and every value, as Redis holds them (the operator's `redis-cli --scan` and GET). */
export async function redisDump(url: string, deployment: string): Promise<string> {
  const raw = createClient({ url });
  await raw.connect();
  try {
    const parts: string[] = [];
    for await (const keys of raw.scanIterator({ MATCH: `${deployment}::*`, COUNT: 1000 })) {
      for (const key of ([] as string[]).concat(keys as string | string[])) parts.push(key, (await raw.get(key)) ?? '');
    }
    return parts.join('\n');
  } finally {
    raw.destroy();
  }
}
