import { inject, Plugin, TOKENS, type BootContext, type Clock, type KeyValueStore } from 'mcp-devtools/plugin';
import { NOTE_BOOK, NoteBook } from './note-book.js';

/**
 * Team notes: short messages people leave for each other beside the tools (a release freeze, a flaky runner).
 * It has no tool; it shows what a plugin can add to the server itself, each declared here and loaded only when
 * the server mounts it:
 * - an HTTP route at /plugins/notes (GET lists, POST adds as the caller the server authenticated);
 * - a CLI verb, `mcp-devtools notes list|add`, reading the same store as the server;
 * - a console page, /console/notes, with a form to add a note (the console's session and CSRF token).
 */
@Plugin({
  name: 'notes',
  version: '1.0.0',
  contributes: {
    routes: [{ credentials: 'notes are read and added with your own bearer token', load: async () => (await import('./notes-route.js')).notesRoute }],
    commands: [{ description: "list or add the team's notes, in the server's store", load: async () => (await import('./notes-command.js')).registerNotes }],
    console: { pages: [{ path: 'notes', label: 'Notes' }], load: async () => (await import('./notes-page.js')).notesPages },
  },
})
export class NotesPlugin {
  private readonly book: NoteBook;

  constructor(@inject(TOKENS.Store) store: KeyValueStore, @inject(TOKENS.Clock) clock: Clock) {
    this.book = new NoteBook(store, clock);
  }

  boot(ctx: BootContext): void {
    ctx.provide(NOTE_BOOK, this.book);
  }
}
