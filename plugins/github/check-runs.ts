import { ToolError } from '../../core/errors/tool-error.js';

type Body = Record<string, unknown>;

/**
 * A page of check runs as github_list_check_runs answers it: for each check what a model decides on (name, who
 * runs it, status, conclusion, where to look) and how many of this page ended each way, instead of GitHub's
 * full objects (each carries its app's owner record and its pull requests: about 2 KB). `id` stays, since a
 * GitHub Actions check run's id is its job's id.
 */
export function checkRunsPage(body: unknown): Body {
  const page = body as Body | null;
  if (page === null || typeof page !== 'object' || !Array.isArray(page.check_runs))
    throw new ToolError('upstream_invalid_body', 'GitHub answered the check runs request without a check_runs list.');
  const counts: Record<string, number> = {};
  const checkRuns = (page.check_runs as Body[]).map((run) => {
    // A check that has not finished has no conclusion yet: it counts by its status (queued, in_progress).
    const outcome = String(run.conclusion ?? run.status);
    counts[outcome] = (counts[outcome] ?? 0) + 1;
    return {
      id: run.id,
      name: run.name,
      app: (run.app as Body | null)?.slug ?? null,
      status: run.status,
      conclusion: run.conclusion ?? null,
      url: run.html_url,
      ...(typeof run.details_url === 'string' && run.details_url !== run.html_url ? { details_url: run.details_url } : {}),
    };
  });
  return { total_count: page.total_count, counts, check_runs: checkRuns };
}
