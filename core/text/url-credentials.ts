/**
 * Settings that are URLs may carry a password (`redis://:secret@host:6379/0`). The URL itself is useful to
 * show (`mcp-devtools config`, start-up errors), the password never is: these helpers hide only the password.
 */

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i;

/** The URL with its password replaced by `***` (`redis://user:***@host/0`); anything else unchanged. */
export function redactUrl(url: string): string {
  return url.replace(USERINFO, (_match, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    if (colon === -1) return `${scheme}${userinfo}@`;
    return `${scheme}${userinfo.slice(0, colon)}:***@`;
  });
}

/** The password inside a URL, as written and decoded, so log scrubbing can catch either form. */
export function urlPasswords(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  const userinfo = USERINFO.exec(value)?.[2];
  const colon = userinfo?.indexOf(':') ?? -1;
  if (userinfo === undefined || colon === -1) return [];
  const raw = userinfo.slice(colon + 1);
  if (raw === '') return [];
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape is left as written; the raw form is still scrubbed.
  }
  return [...new Set([raw, decoded])];
}
