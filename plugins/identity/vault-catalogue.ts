import { StartupError } from '../../core/errors/tool-error.js';
import type { KeyValueStore } from '../../core/store/key-value-store.js';
import type { VaultKey } from './vault-key.js';
import { VAULT_NAMESPACE } from './vault-record.js';

const CATALOGUE_KEY = 'catalogue';
/** Compare-and-set retries when other replicas change the catalogue at the same moment. */
const MAX_ATTEMPTS = 20;

/**
 * The vault's one shared entry: which key seals its records, and the store key of every link (the store cannot
 * list keys, and rotating the key must reach every record). Changed only by compare-and-set, so replicas
 * linking at once never lose each other's entries.
 */
export interface Catalogue {
  v: 1;
  kid: string;
  /** Set while `rotateVaultKey` runs: the id of the key records are being moved to. */
  rotatingTo: string | null;
  links: string[];
}

export class VaultCatalogue {
  constructor(
    private readonly store: KeyValueStore,
    /** How long the catalogue outlives its last change (well beyond any record's). */
    private readonly ttlMs: number,
  ) {}

  read(): Promise<Catalogue | undefined> {
    return this.store.get<Catalogue>(VAULT_NAMESPACE, CATALOGUE_KEY);
  }

  /**
   * Opening the vault with `key`: a new store gets a catalogue naming it; a store whose records another key
   * sealed is refused with one sentence, and nothing is written.
   */
  async claim(key: VaultKey): Promise<void> {
    const current = await this.read();
    if (current === undefined) {
      await this.store.set(VAULT_NAMESPACE, CATALOGUE_KEY, { v: 1, kid: key.id, rotatingTo: null, links: [] } satisfies Catalogue, this.ttlMs);
      return;
    }
    if (current.rotatingTo !== null) {
      throw new StartupError(
        `A rotation of the vault key (from key id ${current.kid} to ${current.rotatingTo}) did not finish: run mcp-devtools accounts rotate-key with the same two keys again to finish it, then start with the new key; nothing was changed.`,
      );
    }
    if (current.kid !== key.id) {
      throw new StartupError(
        `The vault key (key id ${key.id}, from MCP_VAULT_KEY or MCP_VAULT_KEY_FILE) does not open the linked accounts in the store, which key id ${current.kid} sealed: start with that key, or move the records to this one with mcp-devtools accounts rotate-key; nothing was changed.`,
      );
    }
    await this.store.replaceIf(VAULT_NAMESPACE, CATALOGUE_KEY, current, current, this.ttlMs);
  }

  add(link: string, key: VaultKey): Promise<void> {
    return this.change(key, (links) => (links.includes(link) ? links : [...links, link]));
  }

  remove(link: string, key: VaultKey): Promise<void> {
    return this.change(key, (links) => links.filter((l) => l !== link));
  }

  /** Writes `next` in place of `expected` (compare-and-set); whether it did. */
  replace(expected: Catalogue, next: Catalogue): Promise<boolean> {
    return this.store.replaceIf(VAULT_NAMESPACE, CATALOGUE_KEY, expected, next, this.ttlMs);
  }

  private async change(key: VaultKey, edit: (links: string[]) => string[]): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.read();
      if (current === undefined) {
        // Expired or evicted: start it again from this link; records no longer listed stay readable.
        await this.store.set(VAULT_NAMESPACE, CATALOGUE_KEY, { v: 1, kid: key.id, rotatingTo: null, links: edit([]) } satisfies Catalogue, this.ttlMs);
        return;
      }
      if (await this.replace(current, { ...current, links: edit(current.links) })) return;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
    throw new Error('The vault catalogue kept changing under this replica; try again.');
  }
}
