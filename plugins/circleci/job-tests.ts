import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { HandlerContext } from '../../core/plugin/tool-context.js';

/** Pages of test results read at most: a job with more is summarised from these, and says so. */
const MAX_PAGES = 20;

/** Results that are not a failure; anything else (failure, error, an unknown word) is shown as failed. */
const NOT_FAILED = new Set(['success', 'skipped']);

type Json = Record<string, unknown>;

/**
 * circleci_job_tests: every page of a job's test results (the route, then `page-token` as CircleCI's
 * next_page_token says), counted by result; the tests that did not pass, or all of them. CircleCI's test objects
 * are kept as it gives them ({message, source, run_time, file, result, name, classname}).
 */
export async function jobTests(ctx: HandlerContext<{ projectSlug: string; jobNumber: number; failedOnly?: boolean }>, circleci: UpstreamClient): Promise<Json> {
  const { args } = ctx;
  const failedOnly = args.failedOnly ?? true;
  const counts: Record<string, number> = {};
  const tests: Json[] = [];
  let total = 0;
  let token: string | undefined;
  let pages = 0;
  do {
    const request = token === undefined ? ctx.route : { ...ctx.route, query: { 'page-token': token } };
    const page = (await circleci.send(ctx, request)).body as { items?: unknown; next_page_token?: unknown };
    if (!Array.isArray(page?.items)) throw new ToolError('upstream_invalid_body', `CircleCI's test results of job ${args.jobNumber} have no "items".`);
    for (const test of page.items as Json[]) {
      const result = typeof test?.result === 'string' ? test.result : 'unknown';
      counts[result] = (counts[result] ?? 0) + 1;
      total++;
      if (!failedOnly || !NOT_FAILED.has(result)) tests.push(test);
    }
    token = typeof page.next_page_token === 'string' && page.next_page_token !== '' ? page.next_page_token : undefined;
    pages++;
    ctx.progress(pages, token === undefined ? pages : undefined, `reading the test results of job ${args.jobNumber}: ${total} so far`);
  } while (token !== undefined && pages < MAX_PAGES);
  const summary: Json = { projectSlug: args.projectSlug, jobNumber: args.jobNumber, total, counts, shown: failedOnly ? 'failed' : 'all', tests };
  if (total === 0)
    summary.note = 'No test results: the job stores none (store_test_results), has not finished, or has more than 250 MB of them (CircleCI then returns none).';
  if (token !== undefined) summary.note = `Only the first ${pages} pages of results were read (${total} tests); counts cover those.`;
  return summary;
}
