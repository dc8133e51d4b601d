import { leakAudit } from '../../support/leak-audit/leak-audit.js';

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

/**
 * A browser's requests without a browser: cookies kept by hand, forms posted as a browser posts them. For the
 * checks a real browser would never let a page make (forged forms, foreign origins, replayed cookies).
 */
export class ConsoleClient {
  private cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  /** Signs in with a pasted token, as the sign-in form does; throws unless a session was made. */
  static async signIn(base: string, token: string): Promise<ConsoleClient> {
    const client = new ConsoleClient(base);
    const answer = await client.submitToken(token);
    if (answer.status !== 303 || client.session === undefined) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
    return client;
  }

  /** Loads the sign-in form and posts the token with the form's CSRF field. */
  async submitToken(token: string): Promise<Answer> {
    const form = await this.get('/console/signin');
    return this.post('/console/signin', { token }, { csrf: csrfOf(form.text) });
  }

  /** The session cookie's value (registered as a secret: it must never be stored or logged). */
  get session(): string | undefined {
    return this.cookies.get('mcp_console');
  }

  /** The CSRF token of the session, read from a page as a browser would have it. */
  async csrf(): Promise<string> {
    return csrfOf((await this.get('/console')).text);
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request('GET', path, undefined, headers);
  }

  /** `csrf`: the field to send (null: none at all); `origin`: the Origin header (the console's own by default). */
  post(path: string, fields: Record<string, string>, options: { csrf?: string | null; origin?: string | null } = {}): Promise<Answer> {
    const body = new URLSearchParams(fields);
    if (options.csrf !== null && options.csrf !== undefined) body.set('csrf', options.csrf);
    const origin = options.origin === undefined ? new URL(this.base).origin : options.origin;
    return this.request('POST', path, body.toString(), { 'content-type': 'application/x-www-form-urlencoded', ...(origin === null ? {} : { origin }) });
  }

  withCookie(name: string, value: string): this {
    this.cookies.set(name, value);
    return this;
  }

  private async request(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<Answer> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`${this.base}${path}`, { method, body, redirect: 'manual', headers: { ...headers, ...(cookie ? { cookie } : {}) } });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else {
        this.cookies.set(name, value);
        if (name === 'mcp_console') leakAudit.addCanaries([value]);
      }
    }
    return { status: response.status, text: await response.text(), headers: response.headers };
  }
}

export function csrfOf(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (match === null) throw new Error(`no CSRF field on the page:\n${page.slice(0, 2000)}`);
  return match[1]!;
}
