import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import { attachLog, noted, type CiDeps, type LogOptions } from './ci-deps.js';
import { circleciJobOf, MAX_TESTS, type CircleciJobRef } from './circleci-failures.js';
import { refSegment } from './commit-args.js';
import { failure, type FailedTest, type JobFailure } from './report.js';

// A Bitbucket Cloud commit: the pipelines that ran on it and their failed steps (log, test reports), and the
// commit's build statuses (CircleCI's among them).

interface Pipeline {
  uuid: string;
  build_number: number;
  state?: { name?: string; result?: { name?: string } };
  target?: { commit?: { hash?: string }; ref_name?: string };
}

interface Step {
  uuid: string;
  name?: string;
  state?: { name?: string; result?: { name?: string } };
}

interface BuildStatus {
  key: string;
  name?: string;
  state: string;
  url?: string;
  description?: string;
}

interface TestCase {
  uuid: string;
  name?: string;
  fully_qualified_name?: string;
  package_name?: string;
  status?: string;
}

const FAILED = new Set(['FAILED', 'ERROR']);

export const bbRepoPath = (repo: string): string => `/repositories/${repo.split('/').map(encodeURIComponent).join('/')}`;
const uuidSegment = (uuid: string): string => encodeURIComponent(`{${uuid.replace(/^\{|\}$/g, '')}}`);

/** What a Bitbucket commit's CI says, before any step is read. */
export interface BitbucketChecks {
  sha: string;
  total: number;
  failed: Pipeline[];
  pending: string[];
  circleci: Array<{ job: CircleciJobRef; name: string }>;
  otherFailed: JobFailure[];
}

/** The commit a ref names: a hash as given, a branch's head, or a pull request's source commit. */
export async function bitbucketCommit(
  ctx: AnyToolContext,
  bitbucket: UpstreamClient,
  repo: string,
  ref: { ref: string; pullRequest?: number },
): Promise<string> {
  if (ref.pullRequest !== undefined) {
    const pr = (await bitbucket.send(ctx, { method: 'GET', path: `${bbRepoPath(repo)}/pullrequests/${ref.pullRequest}` })).body as {
      source?: { commit?: { hash?: string } };
    };
    return pr.source?.commit?.hash ?? '';
  }
  if (/^[0-9a-f]{7,40}$/i.test(ref.ref)) return ref.ref;
  const branch = (await bitbucket.send(ctx, { method: 'GET', path: `${bbRepoPath(repo)}/refs/branches/${refSegment(ref.ref)}` })).body as {
    target?: { hash?: string };
  };
  return branch.target?.hash ?? '';
}

const sameCommit = (a: string | undefined, b: string): boolean => a !== undefined && a !== '' && (a.startsWith(b) || b.startsWith(a));

/** The pipelines of a commit (among the 50 newest of the repository) and its build statuses. */
export async function bitbucketChecks(ctx: AnyToolContext, bitbucket: UpstreamClient, repo: string, sha: string): Promise<BitbucketChecks> {
  const [pipelines, statuses] = await Promise.all([
    bitbucket.send(ctx, { method: 'GET', path: `${bbRepoPath(repo)}/pipelines`, query: { sort: '-created_on', pagelen: 50 } }),
    bitbucket.send(ctx, { method: 'GET', path: `${bbRepoPath(repo)}/commit/${refSegment(sha)}/statuses`, query: { pagelen: 100 } }),
  ]);
  const ofCommit = ((pipelines.body as { values?: Pipeline[] }).values ?? []).filter((p) => sameCommit(p.target?.commit?.hash, sha));
  // Pipelines reports itself as a build status too: its pipelines are read from the pipelines list.
  const builds = ((statuses.body as { values?: BuildStatus[] }).values ?? []).filter((s) => !/\/pipelines\/results\/|addon\/pipelines/.test(s.url ?? ''));
  const circleci: BitbucketChecks['circleci'] = [];
  const otherFailed: JobFailure[] = [];
  for (const s of builds.filter((b) => b.state === 'FAILED')) {
    const job = s.url ? circleciJobOf(s.url) : undefined;
    if (job !== undefined) circleci.push({ job, name: s.name ?? s.key });
    else {
      const f = failure('Build status', s.name ?? s.key, s.state, s.url);
      if (s.description) f.notes.push(s.description);
      otherFailed.push(f);
    }
  }
  return {
    sha,
    total: ofCommit.length + builds.length,
    failed: ofCommit.filter((p) => FAILED.has(p.state?.result?.name ?? '')),
    pending: [
      ...ofCommit.filter((p) => p.state?.name !== 'COMPLETED').map((p) => `pipeline #${p.build_number}`),
      ...builds.filter((b) => b.state === 'INPROGRESS').map((b) => b.name ?? b.key),
    ],
    circleci,
    otherFailed,
  };
}

/** Each failed step of a failed pipeline: its log around the first errors, and its failed test cases with their reasons. */
export async function pipelineFailures(ctx: AnyToolContext, deps: CiDeps, repo: string, pipeline: Pipeline, options: LogOptions): Promise<JobFailure[]> {
  const bitbucket = deps.clients.bitbucket!;
  const base = `${bbRepoPath(repo)}/pipelines/${uuidSegment(pipeline.uuid)}`;
  const steps = ((await bitbucket.send(ctx, { method: 'GET', path: `${base}/steps`, query: { pagelen: 100 } })).body as { values?: Step[] }).values ?? [];
  const failed = steps.filter((s) => FAILED.has(s.state?.result?.name ?? ''));
  return Promise.all(
    failed.map(async (step) => {
      const web = webUrl(deps, repo, pipeline.build_number);
      const f = failure('Bitbucket Pipelines', `pipeline #${pipeline.build_number}`, step.state?.result?.name ?? 'FAILED', web);
      f.step = step.name;
      const stepPath = `${base}/steps/${uuidSegment(step.uuid)}`;
      const [log, cases] = await Promise.all([
        // The log may be a redirect to storage on another host: followed without the credentials.
        noted(
          f,
          'the log',
          async () => (await bitbucket.send(ctx, { method: 'GET', path: `${stepPath}/log` }, { expect: 'text', followForeignRedirectWithoutAuth: true })).text,
        ),
        noted(f, 'the test reports', async () => {
          const body = (await bitbucket.send(ctx, { method: 'GET', path: `${stepPath}/test_reports/test_cases`, query: { pagelen: 100 } })).body as {
            values?: TestCase[];
          };
          return (body.values ?? []).filter((c) => FAILED.has(c.status ?? ''));
        }),
      ]);
      f.tests = await Promise.all(
        (cases ?? [])
          .slice(0, MAX_TESTS)
          .map((c, i) => testOf(ctx, bitbucket, `${stepPath}/test_reports/test_cases/${uuidSegment(c.uuid)}/test_case_reasons`, c, i < 3)),
      );
      if ((cases?.length ?? 0) > MAX_TESTS) f.moreTests = cases!.length - MAX_TESTS;
      if (log !== undefined) await attachLog(ctx, deps, f, log, options);
      return f;
    }),
  );
}

/** A failed test case; the first few with their reason (the assertion), which costs one request each. */
async function testOf(ctx: AnyToolContext, bitbucket: UpstreamClient, reasonsPath: string, c: TestCase, withReason: boolean): Promise<FailedTest> {
  const test: FailedTest = { name: c.name ?? c.fully_qualified_name ?? c.uuid, classname: c.package_name || undefined };
  if (!withReason) return test;
  try {
    const body = (await bitbucket.send(ctx, { method: 'GET', path: reasonsPath })).body as { values?: Array<Record<string, unknown>> };
    const reason = body.values?.[0];
    const message = reason?.message ?? reason?.output ?? reason?.reason;
    if (typeof message === 'string') test.message = message;
  } catch (error) {
    // The reason is a detail (the test's name already says what failed), unless the call itself must stop.
    if (['cancelled', 'tool_failed', 'policy_denied'].includes((error as { code?: string }).code ?? '')) throw error;
  }
  return test;
}

/** The pipeline's page on bitbucket.org, when the API is Bitbucket Cloud's. */
function webUrl(deps: CiDeps, repo: string, buildNumber: number): string | undefined {
  const host = deps.clients.bitbucket?.identity.host;
  return host === 'api.bitbucket.org' ? `https://bitbucket.org/${repo}/pipelines/results/${buildNumber}` : undefined;
}
