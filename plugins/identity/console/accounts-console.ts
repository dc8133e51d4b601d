import { createHash } from 'node:crypto';
import { isLinkVendor, VENDOR_NAMES, type LinkVendor } from '../../../core/identity/acting-identity.js';
import { LinkError } from '../../../core/identity/link-error.js';
import type { LinkedAccountSummary } from '../../../core/identity/linked-accounts.js';
import {
  csrfField,
  type Banner,
  type ConsoleAnswer,
  type ConsoleContext,
  type ConsolePageRequest,
  type ConsolePages,
} from '../../../core/plugin/contributions.js';
import { html, type Html } from '../../../core/text/html.js';
import type { AccountLinking } from '../account-linking.js';
import { IDENTITY_TOKENS, linkingOf, type LinkPlaces } from '../identity-tokens.js';
import type { Linker } from '../link-states.js';

const DISCONNECT = /^\/console\/accounts\/([a-z-]+)\/disconnect$/;
const TOKEN = /^\/console\/accounts\/([a-z-]+)\/token$/;
const CONNECT = /^\/console\/accounts\/([a-z-]+)\/connect$/;
/** Where /identity/callback/<vendor> sends the browser on to, with the one-time handle of what the vendor sent. */
const FINISH = '/console/accounts/finish';

/**
 * The console's "Connected accounts" page: the signed-in person's linked accounts (login, site, scopes, token
 * expiry, last use, whether the vendor refused it), disconnect (revoking at the vendor where it offers that),
 * a personal access token typed into a form (never through the model), and the way to each browser-linked
 * vendor's consent page. Every link is the viewer's own: the principal comes from their console session.
 */
export function accountsConsole({ kernel, url }: ConsoleContext): ConsolePages {
  try {
    // Refusals of calls now name this page.
    if (url !== undefined) kernel.resolve<LinkPlaces>(IDENTITY_TOKENS.Places).consoleUrl = url;
  } catch {
    // No vault: the page says so.
  }
  return {
    answer: (request) => answer(linkingOf(kernel), request),
    // The last step of a browser link, reached signed out (another browser, an expired sign-in): said at once, and
    // its one-time handle is not kept for after signing in (a new sign-in is another session, refused anyway).
    signedOut: ({ path }) =>
      path === FINISH
        ? {
            status: 403,
            title: 'Not linked',
            text: 'You are not signed in to the console in this browser, so nothing was linked. Sign in, then connect again from Connected accounts.',
          }
        : undefined,
  };
}

async function answer(linking: AccountLinking | undefined, request: ConsolePageRequest): Promise<ConsoleAnswer | undefined> {
  if (linking === undefined)
    return {
      title: 'Connected accounts',
      body: html`<h1>Connected accounts</h1><p class="muted">Linked accounts are not set up on this server (MCP_VAULT_KEY); ask its operator.</p>`,
    };
  // The session (its CSRF token, hashed) binds a link attempt started here to this sign-in.
  const linker: Linker = { principal: request.viewer.subject, session: `console:${createHash('sha256').update(request.viewer.csrf).digest('hex')}` };
  const { path, method, form } = request;
  try {
    if (method === 'POST') {
      const disconnect = vendorIn(DISCONNECT.exec(path));
      if (disconnect !== undefined) {
        const { removed, revoked } = await linking.disconnect(disconnect, linker.principal);
        const text = !removed
          ? `No linked ${VENDOR_NAMES[disconnect]} account.`
          : `Disconnected ${VENDOR_NAMES[disconnect]}${revoked ? ', and revoked there' : ''}.`;
        return page(linking, linker, request, { kind: 'notice', text });
      }
      const token = vendorIn(TOKEN.exec(path));
      if (token !== undefined) {
        const linked = await linking.connectToken(token, form?.get('token') ?? '', linker);
        return page(linking, linker, request, { kind: 'notice', text: `Linked ${VENDOR_NAMES[token]} as ${linked.login}.` });
      }
      const connect = vendorIn(CONNECT.exec(path));
      if (connect !== undefined) {
        const started = await linking.start(connect, linker);
        return {
          title: `Connect ${VENDOR_NAMES[connect]}`,
          body: html`<h1>Connect ${VENDOR_NAMES[connect]}</h1><p>Continue to ${VENDOR_NAMES[connect]} to consent; it sends you back to this page, with the account linked.</p><p><a class="button" href="${started.url}">Continue to ${VENDOR_NAMES[connect]}</a></p>`,
        };
      }
    }
    if (path === FINISH && method === 'GET') {
      const linked = await linking.finishArrival(request.query.get('attempt') ?? '', linker);
      if (linked === undefined)
        return page(
          linking,
          linker,
          request,
          { kind: 'error', text: 'This link attempt is unknown, has expired or was already used, so nothing was linked; connect again.' },
          400,
        );
      return page(linking, linker, request, { kind: 'notice', text: `Linked ${VENDOR_NAMES[linked.vendor]} as ${linked.login}.` });
    }
    if (path === '/console/accounts' && method === 'GET') return page(linking, linker, request);
    return undefined;
  } catch (error) {
    if (error instanceof LinkError) return page(linking, linker, request, { kind: 'error', text: finishing(path, error.message) }, 400);
    throw error;
  }
}

async function page(linking: AccountLinking, linker: Linker, request: ConsolePageRequest, banner?: Banner, status?: number): Promise<ConsoleAnswer> {
  const accounts = await linking.accounts(linker.principal);
  const offered = linking.vendors;
  const csrf = request.viewer.csrf;
  const rows = accounts.map((a) => row(a, csrf));
  const unlinked = (vendors: LinkVendor[]) => vendors.filter((v) => !accounts.some((a) => a.vendor === v));
  const body = html`<h1>Connected accounts</h1>
<p class="muted">Calls to a vendor set to act as the person (GITHUB_CREDENTIALS=user and the like) act with these accounts, as you.</p>
${rows.length === 0 ? html`<p class="muted">No linked accounts yet.</p>` : html`<table class="accounts"><thead><tr><th>Vendor</th><th>Account</th><th>Scopes</th><th>Token expires</th><th>Last used</th><th></th></tr></thead><tbody>${rows}</tbody></table>`}
${unlinked(offered.redirect).map(
  (v) => html`<form method="post" action="/console/accounts/${v}/connect">${csrfField(csrf)}<button type="submit">Connect ${VENDOR_NAMES[v]}</button></form>`,
)}
${unlinked(offered.token).map(
  (v) =>
    html`<form method="post" action="/console/accounts/${v}/token" class="token">${csrfField(csrf)}<label>${VENDOR_NAMES[v]} personal access token <input type="password" name="token" required autocomplete="off" spellcheck="false"></label><button type="submit">Connect</button></form>`,
)}`;
  return { ...(status === undefined ? {} : { status }), title: 'Connected accounts', body, ...(banner === undefined ? {} : { banner }) };
}

function row(a: LinkedAccountSummary, csrf: string): Html {
  return html`<tr data-vendor="${a.vendor}"><td>${VENDOR_NAMES[a.vendor]}</td><td><strong>${a.login}</strong>${a.siteUrl ? html` <span class="muted">${a.siteUrl}</span>` : ''}${
    a.stale ? html` <span class="status rejected">refused by the vendor: link again</span>` : ''
  }</td><td>${a.scopes.join(' ')}</td><td>${a.expiresAt === undefined ? 'does not expire' : new Date(a.expiresAt).toISOString()}</td><td>${new Date(a.lastUsedAt).toISOString()}</td><td><form method="post" action="/console/accounts/${a.vendor}/disconnect">${csrfField(csrf)}<button type="submit">Disconnect</button></form></td></tr>`;
}

/** A refusal of the last step says, too, that nothing was linked. */
function finishing(path: string, sentence: string): string {
  return path === FINISH ? `${sentence.replace(/\.$/, '')}; nothing was linked.` : sentence;
}

function vendorIn(match: RegExpExecArray | null): LinkVendor | undefined {
  const name = match?.[1];
  return name !== undefined && isLinkVendor(name) ? name : undefined;
}
