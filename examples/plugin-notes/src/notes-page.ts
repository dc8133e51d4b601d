import { csrfField, html, type ConsoleAnswer, type ConsoleContext, type ConsolePageRequest, type ConsolePages, type Html } from 'mcp-devtools/plugin';
import { MAX_NOTE_CHARS, NOTE_BOOK, type Note, type NoteBook } from './note-book.js';

/**
 * /console/notes: the notes, and a form to add one as the person signed in. The console's frame has signed them in
 * and checked the form's CSRF token and origin before `answer` sees a POST; everything written into the page goes
 * through `html`, which escapes it.
 */
export function notesPages({ kernel }: ConsoleContext): ConsolePages {
  const book = kernel.resolve<NoteBook>(NOTE_BOOK);
  return {
    async answer(request: ConsolePageRequest): Promise<ConsoleAnswer | undefined> {
      if (request.path !== '/console/notes') return undefined;
      if (request.form === undefined) return page(await book.list(), request);
      try {
        await book.add(request.viewer.subject, request.form.get('text') ?? '');
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        return { status: 400, ...page(await book.list(), request), banner: { kind: 'error', text: error.message } };
      }
      return { redirect: '/console/notes' };
    },
  };
}

function page(notes: readonly Note[], request: ConsolePageRequest): { title: string; body: Html } {
  const body = html`<h1>Notes</h1>
<form method="post" action="/console/notes">${csrfField(request.viewer.csrf)}
<label>A note for the team <textarea name="text" rows="2" maxlength="${MAX_NOTE_CHARS}" required></textarea></label>
<div class="buttons"><button type="submit">Add</button></div>
</form>
${notes.length === 0 ? html`<p class="empty">No notes yet.</p>` : html`<ul class="notes">${notes.map((n) => html`<li><strong>${n.author}</strong> <time datetime="${n.at}">${n.at.slice(0, 16).replace('T', ' ')}</time>: ${n.text}</li>`)}</ul>`}`;
  return { title: 'Notes', body };
}
