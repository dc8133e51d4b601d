import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import { attachLog, noted, type CiDeps, type LogOptions } from './ci-deps.js';
import { circleciJobOf, type CircleciJobRef } from './circleci-failures.js';
import { refSegment } from './commit-args.js';
import { failure, type JobFailure } from './report.js';

// A GitHub commit's checks: its check runs (GitHub Actions jobs and other apps', CircleCI's among them) and its
// commit statuses (CircleCI's classic integration and other CI), read with two requests; then, for each failed
// Actions job, its failed step, log and annotations.

/** Conclusions GitHub gives a check run that failed. */
const FAILED = new Set(['failure', 'timed_out', 'startup_failure', 'action_required']);

export interface CheckRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  html_url?: string;
  details_url?: string | null;
  head_sha?: string;
  app?: { slug?: string; name?: string } | null;
  output?: { title?: string | null; summary?: string | null; annotations_count?: number };
}

interface CommitStatus {
  context: string;
  state: string;
  target_url?: string | null;
  description?: string | null;
}

/** What a GitHub commit's checks say, before any job is read. */
export interface GithubChecks {
  sha: string | undefined;
  total: number;
  failed: CheckRun[];
  failedStatuses: CommitStatus[];
  pending: string[];
  /** Check names that passed on another run of the same commit (a rerun, another event). */
  passedElsewhere: Set<string>;
}

export const repoPath = (repo: string): string => `/repos/${repo.split('/').map(encodeURIComponent).join('/')}`;

/** The checks of a commit, branch or tag: every run of each check (filter=all), the latest deciding. */
export async function githubChecks(ctx: AnyToolContext, github: UpstreamClient, repo: string, ref: string): Promise<GithubChecks> {
  const base = `${repoPath(repo)}/commits/${refSegment(ref)}`;
  const [runs, status] = await Promise.all([
    github.send(ctx, { method: 'GET', path: `${base}/check-runs`, query: { filter: 'all', per_page: 100 } }),
    github.send(ctx, { method: 'GET', path: `${base}/status`, query: { per_page: 100 } }),
  ]);
  const all = ((runs.body as { check_runs?: CheckRun[] }).check_runs ?? []).slice().sort((a, b) => b.id - a.id);
  const latest = new Map<string, CheckRun>();
  for (const run of all) if (!latest.has(run.name)) latest.set(run.name, run);
  const passedElsewhere = new Set(all.filter((r) => r.conclusion === 'success').map((r) => r.name));
  const statuses = (status.body as { sha?: string; statuses?: CommitStatus[] }).statuses ?? [];
  const checks = [...latest.values()];
  return {
    sha: checks[0]?.head_sha ?? (status.body as { sha?: string }).sha,
    total: checks.length + statuses.length,
    failed: checks.filter((c) => c.status === 'completed' && FAILED.has(c.conclusion ?? '')),
    failedStatuses: statuses.filter((s) => s.state === 'failure' || s.state === 'error'),
    // Sorted: the same checks read twice compare equal (ci_wait backs off while nothing changes).
    pending: [
      ...checks.filter((c) => c.status !== 'completed').map((c) => c.name),
      ...statuses.filter((s) => s.state === 'pending').map((s) => s.context),
    ].sort(),
    passedElsewhere,
  };
}

/** What a failed check leads to: an Actions job read here, a CircleCI job read by circleci-failures.ts, or a check reported as it is. */
export type FailedCheck = { kind: 'actions'; run: CheckRun } | { kind: 'circleci'; job: CircleciJobRef; name: string } | { kind: 'other'; failure: JobFailure };

/** Sorts the failed checks and statuses by who can say more about them; CircleCI's check run and status for one job count once. */
export function failedChecks(checks: GithubChecks): FailedCheck[] {
  const out: FailedCheck[] = [];
  const seen = new Set<string>();
  const circleci = (url: string | null | undefined, name: string): boolean => {
    const job = url ? circleciJobOf(url) : undefined;
    if (job === undefined) return false;
    const key = `${job.slug}/${job.number}`;
    if (!seen.has(key)) out.push({ kind: 'circleci', job, name });
    seen.add(key);
    return true;
  };
  for (const run of checks.failed) {
    if (run.app?.slug === 'github-actions') out.push({ kind: 'actions', run });
    else if (!circleci(run.details_url, run.name)) {
      const f = failure(run.app?.name ?? 'Check', run.name, run.conclusion ?? 'failure', run.html_url ?? run.details_url ?? undefined);
      const said = [run.output?.title, run.output?.summary].filter(Boolean).join(': ');
      if (said) f.notes.push(said);
      out.push({ kind: 'other', failure: f });
    }
  }
  for (const s of checks.failedStatuses) {
    if (circleci(s.target_url, s.context)) continue;
    const f = failure('Commit status', s.context, s.state, s.target_url ?? undefined);
    if (s.description) f.notes.push(s.description);
    out.push({ kind: 'other', failure: f });
  }
  return out;
}

interface ActionsJob {
  name: string;
  html_url?: string;
  run_attempt?: number;
  steps?: Array<{ name: string; number: number; conclusion: string | null }>;
}

interface Annotation {
  path: string;
  start_line?: number;
  annotation_level: string;
  message: string;
  title?: string | null;
}

/** A failed Actions job: its failed step, the lines around its first errors, its failure annotations, whether it passed on another run. */
export async function actionsFailure(
  ctx: AnyToolContext,
  deps: CiDeps,
  repo: string,
  run: CheckRun,
  checks: GithubChecks,
  options: LogOptions,
): Promise<JobFailure> {
  const github = deps.clients.github!;
  const f = failure('GitHub Actions', run.name, run.conclusion ?? 'failure', run.html_url);
  if (checks.passedElsewhere.has(run.name)) f.flaky = 'this job passed on another run of the same commit.';
  const jobPath = `${repoPath(repo)}/actions/jobs/${run.id}`;
  const [job, log, annotations] = await Promise.all([
    noted(f, 'the job', async () => (await github.send(ctx, { method: 'GET', path: jobPath })).body as ActionsJob),
    noted(f, 'the log', async () => {
      // GitHub answers 302 to a signed URL on a blob host: followed without the token.
      const response = await github.send(ctx, { method: 'GET', path: `${jobPath}/logs` }, { expect: 'text', followForeignRedirectWithoutAuth: true });
      return response.text;
    }),
    (run.output?.annotations_count ?? 0) === 0
      ? Promise.resolve([])
      : noted(
          f,
          'the annotations',
          async () => (await github.send(ctx, { method: 'GET', path: `${repoPath(repo)}/check-runs/${run.id}/annotations` })).body as Annotation[],
        ),
  ]);
  f.step = job?.steps?.find((s) => s.conclusion === 'failure')?.name;
  f.annotations = (annotations ?? [])
    .filter((a) => a.annotation_level === 'failure' && !/^Process completed with exit code \d+\.?$/.test(a.message))
    .slice(0, 10)
    .map(
      (a) =>
        `${a.path}${a.start_line ? `:${a.start_line}` : ''}: ${a.title ? `${a.title}: ` : ''}${a.message
          .split('\n')
          .filter((l) => l.trim() !== '')
          .slice(0, 3)
          .join(' | ')}`,
    );
  if (log !== undefined) await attachLog(ctx, deps, f, log, options);
  return f;
}
