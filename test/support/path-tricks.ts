import fc from 'fast-check';

/**
 * Every trick a `path` argument can play to send a request somewhere else, aimed at `evil` (host:port of a
 * mock that must never be reached): absolute and scheme-relative URLs, `..` in every encoding, backslashes,
 * userinfo `@` and fragment `#` tricks, CRLF header injection, unicode look-alikes of `.` and `/`, path
 * parameters that Tomcat drops before resolving dots (`..;`, `.;x`, `user;x=1`), and escapes that are not
 * valid UTF-8 (overlong `%c0%ae`, `%e0%80%ae`, stray `%ff`).
 */
export function pathTrick(evil: string): fc.Arbitrary<string> {
  const segment = fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/);
  const dots = fc.constantFrom(
    '..',
    '%2e%2e',
    '%2E%2e',
    '.%2e',
    '%2e.',
    '%252e%252e',
    '%25252e%25252e',
    '%c0%ae%c0%ae',
    '\uff0e\uff0e',
    '..;',
    '...',
    '.',
    ...PARAMETER_DOTS,
    ...OVERLONG_DOTS,
  );
  const slash = fc.constantFrom('/', '%2f', '%2F', '%252f', '\\', '%5c', '%5C', '\u2215', '\uff0f', '//');
  const prefix = fc.constantFrom('', '/', '/rest/', '/wiki/', '/2.0/', '/api/v2/', '/repos/o/r/');
  const climb = fc
    .tuple(prefix, fc.array(fc.tuple(dots, slash), { minLength: 1, maxLength: 6 }), segment)
    .map(([p, parts, last]) => `${p}${parts.map(([d, s]) => d + s).join('')}${last}`);
  const absolute = fc.constantFrom(
    `http://${evil}/x`,
    `https://${evil}/x`,
    `HTTP://${evil}/x`,
    `//${evil}/x`,
    `///${evil}/x`,
    `/\\${evil}/x`,
    `\\\\${evil}\\x`,
    `http:${evil}/x`,
    `http:/\\${evil}/x`,
    `%2f%2f${evil}/x`,
    `/%2f${evil}/x`,
    `%68ttp://${evil}/x`,
    `javascript:alert(1)`,
    `file:///etc/passwd`,
    `data:text/plain,hi`,
    ` http://${evil}/x`,
    `\thttp://${evil}/x`,
    `/rest/@${evil}/x`,
    `@${evil}/x`,
    `user:pass@${evil}/x`,
    `/x@${evil}`,
    `/x#@${evil}/`,
    `/x?@${evil}/`,
    `/x#/../../y`,
    `/x%23/../y`,
    `/x\r\nHost: ${evil}`,
    `/x%0d%0aHost:%20${evil}`,
    `/x%250d%250aHost:${evil}`,
    `/x\u0000/../../y`,
    `/x%00`,
    `/rest/api/3/issue?next=http://${evil}/`,
    `/rest/../wiki/api/v2/pages`,
    `/wiki/../rest/api/3/myself`,
    `/2.0/../1.0/user`,
    `/api/v2/../../${evil}`,
    `?x=1`,
    `#frag`,
    `/`,
    `.`,
    `..`,
  );
  const parameters = fc
    .tuple(prefix, segment, fc.constantFrom(';', ';x=1', ';jsessionid=0A1B', '%3b', '%3Bv=2', '%253b'), segment)
    .map(([p, a, param, b]) => `${p}${a}${param}/${b}`);
  return fc.oneof(
    climb,
    absolute,
    parameters,
    fc.constantFrom(...REVIEW_PATHS),
    fc.tuple(absolute, segment).map(([a, s]) => `${a}/${s}`),
  );
}

/** Segments that are dot segments once a server drops their parameters (`;...`), in several encodings. */
const PARAMETER_DOTS = ['..;', '.;x', '..;x=1', '%2e%2e;', '%2e%2e%3b', '..%3B', '%252e%252e%253b', '.%2e;'];

/** Dots spelt in byte sequences that are not valid UTF-8, which some servers still read as ".". */
const OVERLONG_DOTS = ['%c0%ae', '%c0%ae%c0%ae', '%e0%80%ae%e0%80%ae', '%c0%2e', '%2e%c0%ae', '%f0%80%80%ae', '%25c0%25ae'];

/** The security review's exact inputs. */
const REVIEW_PATHS = [
  '/rest/api/3/user;x=1/search',
  '/rest/api/3/x/..;/user/search',
  '/rest/api/3/issue/x/..;/..;/user',
  '/wiki/%2e%2e%2f%c0%ae/rest/api/3/myself',
  '/2.0/repositories/acme/..;/..;/users/jdoe',
  '/rest/api/3/issue/%ff',
];

/** Ordinary API paths of each vendor's shape, sometimes with a query, so valid calls reach the mock too. */
export function plausiblePath(): fc.Arbitrary<string> {
  const segment = fc.stringMatching(/^[A-Za-z0-9_.~-]{1,16}$/).filter((s) => s !== '.' && s !== '..');
  const prefix = fc.constantFrom(
    '',
    '/',
    '/rest/api/3/',
    '/rest/agile/1.0/',
    '/wiki/api/v2/',
    '/wiki/rest/api/',
    '/2.0/',
    '/api/v2/',
    '/repos/acme/app/',
    'repositories/',
  );
  const query = fc.option(
    fc.tuple(segment, segment).map(([k, v]) => `?${k}=${v}`),
    { nil: '' },
  );
  return fc.tuple(prefix, fc.array(segment, { minLength: 1, maxLength: 5 }), query).map(([p, parts, q]) => `${p}${parts.join('/')}${q}`);
}
