import type { KeyValueStore } from '../../../core/store/key-value-store.js';

/** A writer that keeps losing the race for a list gives up after this many reads (see changeList). */
const MAX_ATTEMPTS = 16;

/**
 * Changes a list kept under one key of the shared store by compare-and-set, so that writers on several workers
 * or replicas changing it at once do not drop each other's entries: a writer whose list changed under it reads
 * it again and applies its change to what it finds. `change` returns undefined when there is nothing to write.
 *
 * Two cases can still lose an entry, so these lists are aids (what approvers are shown, a flood limit), never
 * what decides a call: writers creating a list that does not exist yet at the same moment (the store has no
 * insert-if-absent), and a writer outrun MAX_ATTEMPTS times. A caller that must be listed checks again later.
 */
export async function changeList<T>(
  store: KeyValueStore,
  namespace: string,
  key: string,
  change: (entries: T[]) => T[] | undefined,
  ttlOf: (entries: T[]) => number,
): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await store.get<T[]>(namespace, key);
    const next = change(current ?? []);
    if (next === undefined) return;
    const ttl = ttlOf(next);
    if (!(ttl > 0)) return;
    if (current === undefined) return store.set(namespace, key, next, ttl);
    if (await store.replaceIf(namespace, key, current, next, ttl)) return;
  }
}
