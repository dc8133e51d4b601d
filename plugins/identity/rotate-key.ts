import { StartupError } from '../../core/errors/tool-error.js';
import type { KeyValueStore } from '../../core/store/key-value-store.js';
import { rewrap } from './sealed-box.js';
import { VaultCatalogue, type Catalogue } from './vault-catalogue.js';
import type { VaultKey } from './vault-key.js';
import { CATALOGUE_TTL_FACTOR, DEFAULT_IDLE_MS, sealContext, VAULT_NAMESPACE, type StoredLink } from './vault-record.js';

export interface RotationReport {
  /** Records whose data key is now wrapped by the new key. */
  rewrapped: number;
  /** Records the new key already wrapped (a rotation run again after it stopped part way). */
  alreadyMoved: number;
  /** Listed records gone from the store (expired or removed). */
  gone: number;
  /** Records neither key opens (damaged): left as they are; their owners must link again. */
  unreadable: number;
}

const ATTEMPTS_PER_RECORD = 10;

/**
 * Moves every record of the vault from `from` to `to`: each record's data key is unwrapped with the old key
 * and wrapped with the new one (compare-and-set per record); the sealed tokens are not re-encrypted. The
 * catalogue says a rotation is under way until the last record moved, so a server started meanwhile refuses
 * either key, and running this again with the same keys finishes a rotation that stopped. Afterwards the old
 * key opens nothing. Run it with the servers stopped: one still running with the old key cannot open the moved
 * records (its calls fail with a clear error, nothing is lost).
 */
export async function rotateVaultKey(store: KeyValueStore, from: VaultKey, to: VaultKey, options: { idleMs?: number } = {}): Promise<RotationReport> {
  if (from.id === to.id) throw new StartupError('The new vault key is the same as the old one; make a new one (openssl rand -base64 32).');
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const catalogue = new VaultCatalogue(store, idleMs * CATALOGUE_TTL_FACTOR);
  const started = await startRotation(catalogue, from, to);
  const report: RotationReport = { rewrapped: 0, alreadyMoved: 0, gone: 0, unreadable: 0 };
  for (const key of started.links) report[await moveRecord(store, key, from, to, idleMs)]++;
  await finishRotation(catalogue, to);
  return report;
}

async function startRotation(catalogue: VaultCatalogue, from: VaultKey, to: VaultKey): Promise<Catalogue> {
  for (;;) {
    const current = await catalogue.read();
    if (current === undefined) return { v: 1, kid: from.id, rotatingTo: to.id, links: [] };
    const resuming = current.kid === from.id && current.rotatingTo === to.id;
    if (resuming) return current;
    if (current.kid !== from.id || current.rotatingTo !== null) {
      throw new StartupError(
        `The old vault key given (key id ${from.id}) is not the one that seals the linked accounts (key id ${current.kid}${current.rotatingTo === null ? '' : `, being moved to ${current.rotatingTo}`}); give that key as the old one; nothing was changed.`,
      );
    }
    const next: Catalogue = { ...current, rotatingTo: to.id };
    if (await catalogue.replace(current, next)) return next;
  }
}

async function moveRecord(store: KeyValueStore, key: string, from: VaultKey, to: VaultKey, idleMs: number): Promise<keyof RotationReport> {
  for (let attempt = 0; attempt < ATTEMPTS_PER_RECORD; attempt++) {
    const record = await store.get<StoredLink>(VAULT_NAMESPACE, key);
    if (record === undefined) return 'gone';
    if (record.sealed.kid === to.id) return 'alreadyMoved';
    const sealed = rewrap(record.sealed, from, to, sealContext(record.principal, record.vendor));
    if (sealed === undefined) return 'unreadable';
    if (await store.replaceIf(VAULT_NAMESPACE, key, record, { ...record, sealed }, idleMs)) return 'rewrapped';
  }
  throw new Error(`A linked account (${key}) kept changing during the rotation; run the rotation again to finish it.`);
}

async function finishRotation(catalogue: VaultCatalogue, to: VaultKey): Promise<void> {
  for (;;) {
    const current = await catalogue.read();
    if (current === undefined) {
      return;
    }
    if (await catalogue.replace(current, { ...current, kid: to.id, rotatingTo: null })) return;
  }
}
