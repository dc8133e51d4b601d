import { ToolError } from '../errors/tool-error.js';

const MAX_DECODE_ROUNDS = 5;

/**
 * Checks that a `path` argument is a relative API path and returns it with a leading `/`. Refused, before any
 * request: absolute and scheme-relative URLs, backslashes, `.` and `..` segments in any encoding (`%2e`,
 * `%2E`, double-encoded), control characters (CR/LF included) and fragments. The query part, if any, is kept.
 */
export function safeApiPath(raw: string, vendorLabel: string): string {
  const refuse = (why: string): never => {
    throw new ToolError('invalid_path', `The path ${JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}...` : raw)} is not allowed for ${vendorLabel}: ${why}. Pass a relative API path such as /repos/OWNER/REPO.`);
  };
  if (raw.trim() === '') refuse('it is empty');
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  const [pathPart = ''] = path.split('?', 1);
  const forms = decodedForms(path, refuse);
  for (const form of forms) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(form)) refuse('it contains control characters');
    if (form.includes('\\')) refuse('it contains a backslash');
  }
  if (path.includes('#')) refuse('it contains a fragment (#)');
  for (const form of decodedForms(pathPart, refuse)) {
    if (form.startsWith('//')) refuse('it is a scheme-relative URL');
    if (/^\/*[a-z][a-z0-9+.-]*:/i.test(form)) refuse('it is an absolute URL');
    if (form.split('/').some((segment) => segment === '.' || segment === '..')) refuse('it contains "." or ".." segments');
  }
  return path;
}

/** The string and each further percent-decoding of it, until it stops changing. */
function decodedForms(value: string, refuse: (why: string) => never): string[] {
  const forms = [value];
  let current = value;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    const next = percentDecoded(current);
    if (next === current) return forms;
    forms.push(next);
    current = next;
  }
  return refuse('it is percent-encoded too many times');
}

/**
 * Percent-decodes every escape that can be decoded. A malformed sequence elsewhere (`%c0%ae`, a lone `%`) must
 * not stop the rest from being decoded: URL parsers and servers still read `%2e%2e` beside it as `..`. Runs of
 * escapes that are not valid UTF-8 keep their non-ASCII bytes encoded and have their ASCII ones decoded.
 */
export function percentDecoded(value: string): string {
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-7][0-9A-Fa-f])/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}
