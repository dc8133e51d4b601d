import type { ServerResponse } from 'node:http';
import { html, type Html } from '../../../core/text/html.js';

/** Where the console finishes a browser link: its session cookie is sent there (a same-site navigation). */
export const FINISH_PATH = '/console/accounts/finish';

/**
 * What the callback's pages carry: never cached (a handle is in one), no Referer anywhere (the callback's own
 * URL holds the vendor's code and state), nothing inline and nothing loaded (no script at all: the hand-over is a
 * meta refresh), not framed, not sniffed.
 */
const HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** The browser is sent on to the console with the one-time handle (and a link, should meta refresh be off). */
export function sendContinue(response: ServerResponse, handle: string): void {
  const next = `${FINISH_PATH}?attempt=${encodeURIComponent(handle)}`;
  send(
    response,
    200,
    html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${next}"><title>Finishing the link</title><link rel="stylesheet" href="/console/assets/console.css"></head>
<body><main><p>Finishing the link in the console. <a href="${next}">Continue</a>.</p></main></body></html>
`,
  );
}

/** A callback that links nothing: the sentence, and the way back to the console's page. */
export function sendProblem(response: ServerResponse, status: number, title: string, sentence: string): void {
  send(
    response,
    status,
    html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${title}</title><link rel="stylesheet" href="/console/assets/console.css"></head>
<body><main><h1>${title}</h1><p class="banner error" role="alert">${sentence}</p><p><a href="/console/accounts">Connected accounts</a></p></main></body></html>
`,
  );
}

function send(response: ServerResponse, status: number, page: Html): void {
  response.writeHead(status, HEADERS).end(page.text);
}
