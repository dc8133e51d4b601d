import { ToolError } from '../errors/tool-error.js';
import { decodedForms, invalidEscapeRun } from './path-reading.js';

/**
 * Checks that a `path` argument is a relative API path and returns it with a leading `/`. Refused, before any
 * request: absolute and scheme-relative URLs, backslashes, `.` and `..` segments in any encoding (`%2e`,
 * `%2E`, double-encoded), path parameters (`;` in the path part, which Tomcat strips from a segment before it
 * resolves dot segments: `..;` is `..` there), escapes that are not valid UTF-8 (an overlong `%c0%ae`),
 * control characters (CR/LF included) and fragments. The query part, if any, is kept and may hold `;`.
 */
export function safeApiPath(raw: string, vendorLabel: string): string {
  const refuse = (why: string): never => {
    throw new ToolError('invalid_path', `The path ${JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}...` : raw)} is not allowed for ${vendorLabel}: ${why}. Pass a relative API path such as /repos/OWNER/REPO.`);
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
    if (form.includes(';')) refuse('it contains ";" (path parameters: Tomcat-based servers drop ";..." from a segment, so the request would reach another resource)');
    if (form.split('/').some((segment) => segment === '.' || segment === '..')) refuse('it contains "." or ".." segments');
  }
  return path;
}

function formsOf(value: string, refuse: (why: string) => never): string[] {
  return decodedForms(value) ?? refuse('it is percent-encoded too many times');
}
