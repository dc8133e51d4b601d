import type { ServerResponse } from 'node:http';
import type { ContributionContext, RouteHandler } from 'mcp-devtools/plugin';
import { NOTE_BOOK, type NoteBook } from './note-book.js';

/**
 * `GET /plugins/notes`: the notes, newest first. `POST /plugins/notes` with `{"text": "..."}`: adds one, written
 * by the caller. The server has checked the Host and the bearer token before this runs: `request.caller` is the
 * person it authenticated (this route does not let MCP_ADMIN_TOKEN in), never a name from the body.
 */
export function notesRoute({ kernel, logger }: ContributionContext): RouteHandler {
  const book = kernel.resolve<NoteBook>(NOTE_BOOK);
  return async (request, response) => {
    if (request.path !== '/plugins/notes') return send(response, 404, { error: 'Use GET or POST /plugins/notes.' });
    if (request.method === 'GET') return send(response, 200, { notes: await book.list() });
    if (request.method !== 'POST') return send(response, 405, { error: 'Use GET or POST /plugins/notes.' });
    const body = await request.readJson(4096);
    const text = body.ok && typeof (body.value as { text?: unknown } | null)?.text === 'string' ? (body.value as { text: string }).text : undefined;
    if (text === undefined) return send(response, 400, { error: 'Send JSON {"text": "the note"}.' });
    if (request.caller.kind !== 'person') return send(response, 403, { error: 'Notes are written by people.' });
    try {
      const note = await book.add(request.caller.principal.subject, text);
      logger.info({ author: note.author }, 'note added');
      send(response, 201, { note });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      send(response, 400, { error: error.message });
    }
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
