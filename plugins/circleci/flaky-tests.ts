/*
 * CircleCI's Insights answer for flaky tests comes in two spellings: its OpenAPI description documents
 * hyphenated keys (`flaky-tests`, `test-name`), while the API serves, and CircleCI's own MCP server parses,
 * `flaky_tests[].test_name` and `total_flaky_tests`. Either is given back in the one shape served, so a jq
 * written against it finds what it names whichever spelling this CircleCI answered with.
 */

type Json = Record<string, unknown>;

const snake = (key: string): string => key.replace(/-/g, '_');

function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Json).map(([key, child]) => [snake(key), snakeKeys(child)]));
}

/** `{flaky_tests: [{test_name, classname, file, job_name, times_flaked, ...}], total_flaky_tests}`, from either spelling. */
export function flakyTests(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const value = snakeKeys(body) as Json;
  if (value.total_flaky_tests === undefined && Array.isArray(value.flaky_tests)) value.total_flaky_tests = value.flaky_tests.length;
  return value;
}
