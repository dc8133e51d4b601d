import { ToolError } from '../../core/errors/tool-error.js';

/**
 * GitHub's GraphQL answer as the result of `github_graphql`. GitHub answers 200 for a query it refuses (a
 * field that does not exist, a repository it cannot resolve, the rate limit) with `errors`. Without `data` the
 * upstream client has already ended the call with an error naming them (core/http/graphql-answer.ts); beside
 * `data` (a partial answer: the tool declares partialData) it is returned whole, so that the agent sees both
 * what resolved and what did not.
 */
export function graphqlAnswer(body: unknown): { data: unknown; errors?: unknown[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ToolError('upstream_invalid_body', "GitHub's GraphQL API answered with something that is not a GraphQL response object.");
  }
  const { data, errors } = body as { data?: unknown; errors?: unknown };
  return Array.isArray(errors) && errors.length > 0 ? { data: data ?? null, errors } : { data: data ?? null };
}
