import { ToolError } from '../errors/tool-error.js';
import type { GraphqlFacts } from '../plugin/upstream-types.js';

/** The most errors an error result lists one by one; the rest are counted. */
const LISTED_ERRORS = 5;

interface GraphqlErrorEntry {
  message?: unknown;
  path?: unknown;
  type?: unknown;
  extensions?: { code?: unknown };
}

/**
 * Refuses a GraphQL answer that carries `errors`. GraphQL over HTTP answers 200 when part of an operation failed
 * (GitHub: `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],...}]}`), so a handler
 * that read `data` showed `null` as a success. Such an answer is an error naming each message and path, unless the
 * tool declares `graphql: { partialData: true }` and the answer has data: then the handler gets it whole.
 */
export function refuseGraphqlErrors(body: unknown, status: number, label: string, operation: GraphqlFacts, partialData: boolean): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const { data, errors } = body as { data?: unknown; errors?: unknown };
  if (!Array.isArray(errors) || errors.length === 0) return;
  const hasData = data !== null && data !== undefined;
  if (partialData && hasData) return;
  const what = `the GraphQL ${operation.operation}${operation.name === null ? '' : ` ${operation.name}`}`;
  const count = errors.length === 1 ? 'an error' : `${errors.length} errors`;
  const listed = (errors as GraphqlErrorEntry[]).slice(0, LISTED_ERRORS).map(describeError);
  const more = errors.length > LISTED_ERRORS ? `; and ${errors.length - LISTED_ERRORS} more` : '';
  const advice = hasData
    ? ' It also answered partial data: a tool that can use it declares graphql: { partialData: true }, and its handler gets the data and the errors.'
    : '';
  throw new ToolError(
    'upstream_graphql_error',
    `${label} answered ${what} with ${count}${hasData ? '' : ' and no data'}: ${listed.join('; ')}${more}.${advice}`,
    {
      status,
    },
  );
}

/** One error as `at a.b[0]: message (CODE)`. */
function describeError(error: GraphqlErrorEntry): string {
  const entry: GraphqlErrorEntry = error !== null && typeof error === 'object' ? error : { message: String(error) };
  const path = Array.isArray(entry.path) ? entry.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('') : '';
  const message = typeof entry.message === 'string' && entry.message !== '' ? entry.message.replace(/\.$/, '') + '.' : '(no message)';
  const code = typeof entry.type === 'string' ? entry.type : typeof entry.extensions?.code === 'string' ? entry.extensions.code : undefined;
  return `${path === '' ? '' : `at ${path}: `}${message.slice(0, 500)}${code === undefined ? '' : ` (${code})`}`;
}

/**
 * The `data` of a GraphQL answer, typed as the handler expects it. Answers with errors never reach a handler
 * (unless its tool declares `partialData`), so this refuses only an answer that holds no data at all.
 */
export function dataOf<T = Record<string, unknown>>(body: unknown): T {
  const data = body !== null && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  if (data === null || data === undefined) {
    throw new ToolError(
      'upstream_graphql_error',
      'The GraphQL answer holds no data (and no errors saying why); the API answered something that is not a GraphQL result.',
    );
  }
  return data as T;
}
