/**
 * How an upstream server reads a request path, in one place: the path check (safe-path.ts), policy path rules
 * and the cache's status paths all use it, so what a rule matches is what the vendor serves.
 */

/** Decoding rounds before a path counts as encoded too many times (`%25252e` is three). */
export const MAX_DECODE_ROUNDS = 5;

const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Percent-decodes every escape that can be decoded. A malformed sequence elsewhere (`%c0%ae`, a lone `%`) must
 * not stop the rest from being decoded: URL parsers and servers still read `%2e%2e` beside it as `..`. Runs of
 * escapes that are not valid UTF-8 keep their non-ASCII bytes encoded and have their ASCII ones decoded.
 */
export function percentDecoded(value: string): string {
  return value.replace(ESCAPE_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-7][0-9A-Fa-f])/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/**
 * The first run of escapes that is not valid UTF-8 (an overlong `%c0%ae`, a lone `%ff`, a cut sequence), or
 * undefined. Servers disagree on such bytes (some read `%c0%ae` as `.`), so a path holding one is refused.
 */
export function invalidEscapeRun(value: string): string | undefined {
  for (const [run] of value.matchAll(ESCAPE_RUN)) {
    try {
      decodeURIComponent(run);
    } catch {
      return run;
    }
  }
  return undefined;
}

/** The string and each further percent-decoding of it, until it stops changing; undefined past the rounds. */
export function decodedForms(value: string): string[] | undefined {
  const forms = [value];
  let current = value;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    const next = percentDecoded(current);
    if (next === current) return forms;
    forms.push(next);
    current = next;
  }
  return undefined;
}

/**
 * The path a server serves for `path`, as the most liberal of the vendors' servers reads it: without the query,
 * percent-decoded until it stops changing, path parameters dropped from each segment (Tomcat, which serves Jira,
 * Confluence and Bitbucket Data Center, reads `user;x=1` as `user` and `..;` as `..`), dot segments resolved,
 * repeated slashes collapsed and a trailing slash dropped. `/rest/api/3/x/..;/user//%73earch/?q=1` is
 * `/rest/api/3/user/search`. The path check refuses the tricks outright; this form is what rules match, so
 * even a path that was never checked is judged by the resource it reaches.
 */
export function servedPath(path: string): string {
  let current = path.split('?', 1)[0]!;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    const decoded = percentDecoded(current);
    if (decoded === current) break;
    current = decoded;
  }
  const segments: string[] = [];
  for (const raw of current.split('/')) {
    const segment = raw.split(';', 1)[0]!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}
