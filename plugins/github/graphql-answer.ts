import { ToolError } from '../../core/errors/tool-error.js';

/** One entry of a GraphQL answer's `errors`, as GitHub writes it (`type` is GitHub's; `path` the field's). */
interface GraphqlError {
  message?: unknown;
  type?: unknown;
  path?: unknown;
}

/** How many errors an error result names: GitHub repeats one per alias, and the first few say what to fix. */
const NAMED_ERRORS = 5;

/**
 * GitHub's GraphQL answer as the result of `github_graphql`. GitHub answers 200 for a query it refuses (a
 * field that does not exist, a repository it cannot resolve, the rate limit) with `errors`: without `data`
 * that is an error result naming them; beside `data` (a partial answer) it is returned whole, so that the
 * agent sees both what resolved and what did not.
 */
export function graphqlAnswer(body: unknown): { data: unknown; errors?: unknown[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ToolError('upstream_invalid_body', "GitHub's GraphQL API answered with something that is not a GraphQL response object.");
  }
  const { data, errors } = body as { data?: unknown; errors?: unknown };
  const listed = Array.isArray(errors) ? (errors as GraphqlError[]) : [];
  if ((data === null || data === undefined) && listed.length > 0) {
    const named = listed.slice(0, NAMED_ERRORS).map(describeError);
    const more = listed.length > NAMED_ERRORS ? ` (and ${listed.length - NAMED_ERRORS} more)` : '';
    throw new ToolError('upstream_http_error', `GitHub's GraphQL API refused the query: ${named.join('; ')}${more}. Fix the document or its variables.`, {
      status: 200,
    });
  }
  return listed.length > 0 ? { data: data ?? null, errors: listed } : { data: data ?? null };
}

/** `NOT_FOUND at repository: Could not resolve to a Repository with the name 'octo-org/nope'.` */
function describeError(error: GraphqlError): string {
  const where = [typeof error.type === 'string' ? error.type : '', Array.isArray(error.path) && error.path.length > 0 ? `at ${error.path.join('.')}` : '']
    .filter((part) => part !== '')
    .join(' ');
  const message = typeof error.message === 'string' ? error.message : 'no message';
  return where === '' ? message : `${where}: ${message}`;
}
