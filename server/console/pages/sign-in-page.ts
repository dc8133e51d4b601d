import { html, type Html } from '../../../core/text/html.js';
import { csrfField } from '../../../core/plugin/contributions.js';
import { page, type Banner } from './layout.js';

/** The sign-in page: a pasted bearer token (MCP_AUTH_MODE=tokens), or a button to the identity provider (oidc). */
export function signInPage(mode: 'tokens' | 'oidc', csrf: string, banner?: Banner, provider?: string): Html {
  const form =
    mode === 'tokens'
      ? html`<form method="post" action="/console/signin" class="signin">${csrfField(csrf)}
<label>Your bearer token <input type="password" name="token" required autocomplete="off" spellcheck="false"></label>
<button type="submit">Sign in</button>
</form>
<p class="muted">Paste the token you were issued for this server. It is checked once and never kept: the console keeps a session instead, until you sign out or it expires.</p>`
      : html`<form method="post" action="/console/signin" class="signin">${csrfField(csrf)}
<button type="submit">Sign in with ${provider ?? 'your identity provider'}</button>
</form>
<p class="muted">You sign in at your company's identity provider; the console learns your name and groups from it.</p>`;
  return page('Sign in', html`<h1>Sign in to the console</h1>${form}`, { banner });
}

/** After the provider's redirect: a same-site navigation, so the browser sends the SameSite=Strict session cookie. */
export function continuePage(next = '/console'): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${next}"><title>Signed in</title><link rel="stylesheet" href="/console/assets/console.css"></head>
<body><main><p>Signed in. <a href="${next}">Continue to the console</a>.</p></main></body></html>
`;
}

/** A page for what went wrong, with the way back. */
export function problemPage(title: string, message: string, back = '/console'): Html {
  return page(title, html`<h1>${title}</h1><p class="banner error" role="alert">${message}</p><p><a href="${back}">Back</a></p>`);
}
