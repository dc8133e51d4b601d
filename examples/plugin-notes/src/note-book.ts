import type { Clock, KeyValueStore } from 'mcp-devtools/plugin';

/** One note: who wrote it (as the server authenticated them), when, and what. */
export interface Note {
  author: string;
  at: string;
  text: string;
}

/** The token the plugin provides its NoteBook under: its route and console page resolve it. */
export const NOTE_BOOK = 'mcp-devtools-plugin-notes:NoteBook';

const NAMESPACE = 'notes-example';
const KEY = 'all';
const KEPT_MS = 30 * 24 * 3600 * 1000;
export const MAX_NOTE_CHARS = 500;
const MAX_NOTES = 100;

/**
 * The team's notes in the server's shared store (MCP_STORE_URL), so every replica, and the `notes` command run
 * beside them with the same store, sees the same list. Newest first, the last 100 kept for 30 days.
 */
export class NoteBook {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<Note[]> {
    return (await this.store.get<Note[]>(NAMESPACE, KEY)) ?? [];
  }

  /** Adds a note by compare-and-set, so two added at once on two replicas are both kept (the very first is written plainly). */
  async add(author: string, text: string): Promise<Note> {
    const trimmed = text.trim();
    if (trimmed === '') throw new RangeError('A note needs some text.');
    if (trimmed.length > MAX_NOTE_CHARS) throw new RangeError(`A note is at most ${MAX_NOTE_CHARS} characters; this one is ${trimmed.length}.`);
    const note: Note = { author, at: new Date(this.clock.now()).toISOString(), text: trimmed };
    for (;;) {
      const before = await this.store.get<Note[]>(NAMESPACE, KEY);
      const next = [note, ...(before ?? [])].slice(0, MAX_NOTES);
      if (before === undefined) {
        await this.store.set(NAMESPACE, KEY, next, KEPT_MS);
        return note;
      }
      if (await this.store.replaceIf(NAMESPACE, KEY, before, next, KEPT_MS)) return note;
    }
  }
}
