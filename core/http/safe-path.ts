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
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // A lone % is not a trick by itself; what decodes so far has been checked.
      return forms;
    }
    if (next === current) return forms;
    forms.push(next);
    current = next;
  }
  return refuse('it is percent-encoded too many times');
}
