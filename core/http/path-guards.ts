import { ToolError } from '../errors/tool-error.js';

/**
 * The guards on request paths, in one place: how an upstream server reads a path (policy path rules and the
 * cache's status paths match that form, so what a rule matches is what the vendor serves), and the check that
 * refuses the tricks outright before any request (`safeApiPath`).
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
  if (!value.includes('%')) return undefined;
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
  // Most paths hold no escape at all: they decode to themselves, and the regular expression need not say so.
  if (!value.includes('%')) return [value];
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

/**
 * Checks that a `path` argument is a relative API path and returns it with a leading `/`. Refused, before any
 * request: absolute and scheme-relative URLs, backslashes, `.` and `..` segments in any encoding (`%2e`,
 * `%2E`, double-encoded), path parameters (`;` in the path part, which Tomcat strips from a segment before it
 * resolves dot segments: `..;` is `..` there), escapes that are not valid UTF-8 (an overlong `%c0%ae`),
 * control characters (CR/LF included) and fragments. The query part, if any, is kept and may hold `;`.
 * `examplePath` is a path of the vendor's own API that works, suggested in the refusal (its client's
 * `examplePath`); without one the hint names the vendor's API in general.
 */
export function safeApiPath(raw: string, vendorLabel: string, examplePath?: string): string {
  const refuse = (why: string): never => {
    throw new ToolError(
      'invalid_path',
      `The path ${JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}...` : raw)} is not allowed for ${vendorLabel}: ${why}. ${pathHint(vendorLabel, examplePath)}`,
    );
  };
  if (raw.trim() === '') refuse('it is empty');
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  const [pathPart = ''] = path.split('?', 1);
  for (const form of formsOf(path, refuse)) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(form)) refuse('it contains control characters');
    if (form.includes('\\')) refuse('it contains a backslash');
  }
  if (path.includes('#')) refuse('it contains a fragment (#)');
  for (const form of formsOf(pathPart, refuse)) {
    const invalid = invalidEscapeRun(form);
    if (invalid !== undefined) refuse(`it contains ${invalid}, which is not valid UTF-8 (servers disagree on what such bytes mean)`);
    if (form.startsWith('//')) refuse('it is a scheme-relative URL');
    if (/^\/*[a-z][a-z0-9+.-]*:/i.test(form)) refuse('it is an absolute URL');
    if (form.includes(';'))
      refuse('it contains ";" (path parameters: Tomcat-based servers drop ";..." from a segment, so the request would reach another resource)');
    if (form.split('/').some((segment) => segment === '.' || segment === '..')) refuse('it contains "." or ".." segments');
  }
  return path;
}

/** What to pass instead: the vendor's own example when its plugin declares one (never another vendor's). */
function pathHint(vendorLabel: string, examplePath: string | undefined): string {
  return examplePath !== undefined && examplePath !== ''
    ? `Pass a relative API path such as ${examplePath}.`
    : `Pass a relative path of the ${vendorLabel} API, starting with /.`;
}

function formsOf(value: string, refuse: (why: string) => never): string[] {
  return decodedForms(value) ?? refuse('it is percent-encoded too many times');
}
