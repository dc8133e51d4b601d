import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Html } from '../../core/text/html.js';

/**
 * What every console answer carries: no caching (pages hold CSRF tokens and other people's calls), no
 * framing, no sniffing, no referrer to other sites (the OIDC callback URL holds a code; `no-referrer` would
 * also make Chromium send `Origin: null` with the console's own forms), and a policy that lets the page
 * load only the console's own stylesheet and script: nothing inline, nothing from elsewhere.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'content-security-policy': contentSecurityPolicy(),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

function contentSecurityPolicy(formTarget?: string): string {
  return `default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'${formTarget ? ` ${formTarget}` : ''}; frame-ancestors 'none'; base-uri 'none'`;
}

/**
 * `formTarget`: another origin a form of this page may end up at (browsers apply form-action to the
 * redirects after a submission too: the OIDC sign-in form redirects to the identity provider).
 */
export function sendHtml(response: ServerResponse, status: number, page: Html, cookies: string[] = [], formTarget?: string): void {
  if (cookies.length > 0) response.setHeader('set-cookie', cookies);
  const csp = formTarget === undefined ? {} : { 'content-security-policy': contentSecurityPolicy(formTarget) };
  response.writeHead(status, { ...SECURITY_HEADERS, ...csp, 'content-type': 'text/html; charset=utf-8' }).end(page.text);
}

export function sendAsset(response: ServerResponse, contentType: string, body: string): void {
  // Same-origin assets, still uncached: a new version reaches every approver on the next load.
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': contentType }).end(body);
}

/** 303 See Other: after a form, the browser GETs the next page (a reload does not post again). */
export function redirect(response: ServerResponse, location: string, cookies: string[] = []): void {
  if (cookies.length > 0) response.setHeader('set-cookie', cookies);
  response.writeHead(303, { ...SECURITY_HEADERS, location }).end();
}

export interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
  secure: boolean;
  /** Strict for the session; Lax only for the OIDC state, which must come back from the provider's redirect. */
  sameSite: 'Strict' | 'Lax';
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return `${name}=${value}; Path=${options.path}; Max-Age=${options.maxAgeSeconds}; HttpOnly; SameSite=${options.sameSite}${options.secure ? '; Secure' : ''}`;
}

export function clearCookie(name: string, options: Omit<CookieOptions, 'maxAgeSeconds'>): string {
  return serializeCookie(name, '', { ...options, maxAgeSeconds: 0 });
}

export function readCookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export const MAX_FORM_BYTES = 64 * 1024;

/** An HTML form's fields (application/x-www-form-urlencoded), or undefined when the body is too large or of another type. */
export async function readForm(request: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    request.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_FORM_BYTES) {
      request.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
