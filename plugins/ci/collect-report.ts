import { ToolError } from '../../core/errors/tool-error.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import { bitbucketChecks, bitbucketCommit, bbRepoPath, pipelineFailures, type BitbucketChecks } from './bitbucket-failures.js';
import type { CiDeps, LogOptions } from './ci-deps.js';
import { circleciFailure } from './circleci-failures.js';
import { actionsFailure, failedChecks, githubChecks, repoPath, type GithubChecks } from './github-failures.js';
import type { FailureReport, JobFailure } from './report.js';

/** Which commit a call is about, on which host: `ref` is a SHA, branch or tag, or `#N` for pull request N. */
export interface CommitRef {
  repo: string;
  ref: string;
  host?: 'github' | 'bitbucket';
}

/** The pull request a ref names (`#42`), if it names one. */
export const pullRequestOf = (ref: string): number | undefined => (/^#\d{1,9}$/.test(ref) ? Number(ref.slice(1)) : undefined);

/** Where the repository lives: as given, else GitHub when it is configured, else Bitbucket. */
export function hostOf(deps: CiDeps, target: CommitRef): 'github' | 'bitbucket' {
  const host = target.host ?? (deps.clients.github !== undefined || deps.clients.bitbucket === undefined ? 'github' : 'bitbucket');
  if (deps.clients[host] === undefined) {
    const setting = host === 'github' ? 'GITHUB_TOKEN' : 'BITBUCKET_ACCESS_TOKEN (or an Atlassian account or app password)';
    throw new ToolError(
      'missing_credentials',
      `${host === 'github' ? 'GitHub' : 'Bitbucket'} credentials are not configured: set ${setting} to read the checks of ${target.repo}.`,
    );
  }
  return host;
}

/** What the checks of a commit say, on either host: enough for ci_wait to tell finished from running. */
export type CommitChecks = ({ host: 'github'; sha: string; checks: GithubChecks } | { host: 'bitbucket'; sha: string; checks: BitbucketChecks }) & {
  /** For a GitHub pull request (`#N`): the repositories its head and base live in, as GitHub stated them. */
  pullRequest?: { head: string | undefined; base: string | undefined; basePrivate: boolean | undefined };
};

/** The checks of the commit a call names (a pull request's head is looked up first). */
export async function commitChecks(ctx: AnyToolContext, deps: CiDeps, target: CommitRef): Promise<CommitChecks> {
  const pullRequest = pullRequestOf(target.ref);
  if (hostOf(deps, target) === 'github') {
    const github = deps.clients.github!;
    let ref: string | undefined = target.ref;
    if (pullRequest !== undefined) {
      const pr = (await github.send(ctx, { method: 'GET', path: `${repoPath(target.repo)}/pulls/${pullRequest}` })).body as PullRequestRefs;
      ref = pr.head?.sha;
      if (!ref) throw new ToolError('upstream_invalid_body', `GitHub gave no head commit for pull request #${pullRequest} of ${target.repo}.`);
      const checks = await githubChecks(ctx, github, target.repo, ref);
      const origin = { head: pr.head?.repo?.full_name, base: pr.base?.repo?.full_name, basePrivate: pr.base?.repo?.private };
      return { host: 'github', sha: checks.sha ?? ref, checks, pullRequest: origin };
    }
    const checks = await githubChecks(ctx, github, target.repo, ref);
    return { host: 'github', sha: checks.sha ?? ref, checks };
  }
  const bitbucket = deps.clients.bitbucket!;
  const sha = await bitbucketCommit(ctx, bitbucket, target.repo, { ref: target.ref, pullRequest });
  if (sha === '') throw new ToolError('upstream_invalid_body', `Bitbucket gave no commit for ${target.ref} of ${target.repo}.`);
  return { host: 'bitbucket', sha, checks: await bitbucketChecks(ctx, bitbucket, target.repo, sha) };
}

/** What a pull request says of where its head and base live (a fork's head lives in another repository). */
interface PullRequestRefs {
  head?: { sha?: string; repo?: { full_name?: string } | null };
  base?: { repo?: { full_name?: string; private?: boolean } };
}

/** Checks not finished yet, by name. */
export const pendingOf = (c: CommitChecks): string[] => c.checks.pending;

/** The failure report of checks already read: each failed job read from the vendor that ran it. */
export async function reportOf(ctx: AnyToolContext, deps: CiDeps, target: CommitRef, c: CommitChecks, options: LogOptions): Promise<FailureReport> {
  let failures: JobFailure[];
  if (c.host === 'github') {
    failures = await Promise.all(
      failedChecks(c.checks).map((check) => {
        if (check.kind === 'actions') return actionsFailure(ctx, deps, target.repo, check.run, c.checks, options);
        if (check.kind === 'circleci') return circleciFailure(ctx, deps, check.job, check.name, options);
        return Promise.resolve(check.failure);
      }),
    );
  } else {
    const pipelines = await Promise.all(c.checks.failed.map((p) => pipelineFailures(ctx, deps, target.repo, p, options)));
    const circleci = await Promise.all(c.checks.circleci.map((j) => circleciFailure(ctx, deps, j.job, j.name, options)));
    failures = [...pipelines.flat(), ...circleci, ...c.checks.otherFailed];
  }
  const vendors = [...new Set(failures.map((f) => f.vendor))];
  return {
    subject: `${target.repo} at ${c.sha.slice(0, 12)}`,
    summary: `${c.checks.total} check${c.checks.total === 1 ? '' : 's'} read on ${c.host === 'github' ? 'GitHub' : 'Bitbucket'}${vendors.length > 0 ? `; failed on ${vendors.join(', ')}` : ''}`,
    failures,
    pending: c.checks.pending,
  };
}

/** The repository's API path on its host, for the tools' further requests. */
export const repositoryPath = (host: 'github' | 'bitbucket', repo: string): string => (host === 'github' ? repoPath(repo) : bbRepoPath(repo));
