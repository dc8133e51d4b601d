import { servedPath } from '../../core/http/path-guards.js';

/**
 * Paths whose answers change by the second, per vendor: never served from the cache, however the response is
 * labelled. Matched against the path as sent (API prefix included, query excluded).
 *
 * CircleCI: one pipeline (`/pipeline/{id}` and below, `/project/{slug}/pipeline/{number}`), one workflow
 * (`/workflow/{id}` and below) and one job (`/project/{slug}/job/{number}`, its artifacts and test results).
 * The discovery lists an agent polls after a push are status paths too: a project's pipelines
 * (`/project/{slug}/pipeline`, `.../pipeline/mine`), an organisation's (`/pipeline`), a pipeline's workflows
 * and a workflow's jobs (below one pipeline or workflow), so a new pipeline shows at once. Other lists
 * (insights, contexts) stay cacheable. Project slugs may be written with `/` or with `%2F`, so a slug is
 * matched as "anything".
 */
const STATUS_PATHS: Readonly<Record<string, readonly RegExp[]>> = {
  circleci: [
    /^\/api\/v2\/pipeline\/[^/]+(\/.*)?$/i,
    /^\/api\/v2\/workflow\/[^/]+(\/.*)?$/i,
    /^\/api\/v2\/project\/.+\/pipeline\/\d+$/i,
    /^\/api\/v2\/project\/.+\/job\/[^/]+(\/.*)?$/i,
    /^\/api\/v2\/project\/.+\/\d+\/(artifacts|tests)$/i,
    /^\/api\/v2\/project\/.+\/pipeline(\/mine)?$/i,
    /^\/api\/v2\/pipeline$/i,
  ],
};

/** True when `path` (as sent to `vendor`, with or without a query) is a status path that must not be cached. */
export function isStatusPath(vendor: string, path: string): boolean {
  // Matched as the vendor serves it, as policy rules are: `/api/v2/%77orkflow/x` is the same workflow upstream.
  const served = servedPath(path);
  return (STATUS_PATHS[vendor] ?? []).some((pattern) => pattern.test(served));
}
