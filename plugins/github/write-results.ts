import { ToolError } from '../../core/errors/tool-error.js';

/**
 * What each GitHub write answers: the few fields that say what was made or changed (number, state, web
 * address), not GitHub's whole object (an issue is some 4 KB of URLs and user records a model would pay for on
 * every write). Field names are GitHub's, so they read like the objects the read tools return.
 */

type Body = Record<string, unknown>;

/** The JSON object GitHub answered a write with; anything else is a broken answer, not an empty success. */
export function objectBody(body: unknown, what: string): Body {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as Body;
  throw new ToolError('upstream_invalid_body', `GitHub answered ${what} with ${body === undefined ? 'no body' : 'a body that is not an object'}.`);
}

const names = (items: unknown, key: 'name' | 'login'): string[] =>
  Array.isArray(items) ? items.map((item) => (item as Body | null)?.[key]).filter((n): n is string => typeof n === 'string') : [];

/** An issue (or a pull request seen as one) after github_create_issue or github_update_issue. */
export function issueResult(issue: Body, changed?: string[]): Body {
  return {
    number: issue.number,
    title: issue.title,
    state: issue.state,
    ...(issue.state_reason ? { state_reason: issue.state_reason } : {}),
    labels: names(issue.labels, 'name'),
    assignees: names(issue.assignees, 'login'),
    html_url: issue.html_url,
    ...(changed ? { changed } : {}),
  };
}

export function commentResult(comment: Body, issueNumber: number): Body {
  return { id: comment.id, issue_number: issueNumber, html_url: comment.html_url, created_at: comment.created_at };
}

export function pullRequestResult(pull: Body): Body {
  const ref = (side: unknown): unknown => (side as Body | null)?.label ?? (side as Body | null)?.ref;
  return {
    number: pull.number,
    title: pull.title,
    state: pull.state,
    draft: pull.draft === true,
    head: ref(pull.head),
    base: ref(pull.base),
    html_url: pull.html_url,
  };
}

export function reviewResult(review: Body, pullNumber: number, comments: number): Body {
  return { id: review.id, pull_number: pullNumber, state: review.state, comments, html_url: review.html_url, submitted_at: review.submitted_at };
}

/** GitHub's merge answer ({sha, merged, message}) with the method used; GitHub's default method is a merge commit. */
export function mergeResult(merge: Body, pullNumber: number, method: string | undefined, htmlUrl: string): Body {
  return { pull_number: pullNumber, merged: merge.merged, sha: merge.sha, method: method ?? 'merge', message: merge.message, html_url: htmlUrl };
}

export interface RunWhere {
  runId: number;
  /** The run's web page. */
  htmlUrl: string;
}

/** A rerun: GitHub answers 201 with an empty object; what was asked for is the answer. */
export function rerunResult(run: RunWhere, failedOnly: boolean): Body {
  return { run_id: run.runId, rerun: failedOnly ? 'failed jobs' : 'all jobs', html_url: run.htmlUrl };
}

/** A cancel: GitHub answers 202 Accepted and the run stops shortly after. */
export function cancelResult(run: RunWhere): Body {
  return { run_id: run.runId, state: 'cancel requested', html_url: run.htmlUrl };
}

export interface Dispatched {
  owner: string;
  repo: string;
  workflowId: string | number;
  ref: string;
  inputs?: Record<string, unknown>;
  /** The repository's web address. */
  repoUrl: string;
  /** The run GitHub answered with (return_run_details), when it did. */
  run?: { run_id: number; html_url: string };
}

/** The run a dispatch answered with (`{workflow_run_id, run_url, html_url}`, 200), or undefined (204, or another shape). */
export function dispatchedRun(body: unknown): { run_id: number; html_url: string } | undefined {
  const b = body as { workflow_run_id?: unknown; html_url?: unknown } | null | undefined;
  return typeof b?.workflow_run_id === 'number' && typeof b.html_url === 'string' ? { run_id: b.workflow_run_id, html_url: b.html_url } : undefined;
}

/**
 * A dispatch: with the run GitHub answered with (return_run_details), that run and the call that lists its jobs;
 * else (204, the run appears a few seconds later) what was started and the call that finds its runs.
 */
export function dispatchResult(d: Dispatched): Body {
  const byName = typeof d.workflowId === 'string';
  if (d.run !== undefined) {
    const { run_id, html_url } = d.run;
    const jobs = { tool: 'github_list_workflow_jobs', arguments: { owner: d.owner, repo: d.repo, runId: run_id } };
    return { workflow: d.workflowId, ref: d.ref, inputs: d.inputs ?? {}, run_id, html_url, jobs };
  }
  return {
    workflow: d.workflowId,
    ref: d.ref,
    inputs: d.inputs ?? {},
    runs_url: `${d.repoUrl}/actions${byName ? `/workflows/${encodeURIComponent(d.workflowId)}` : ''}`,
    runs: {
      tool: 'github_list_workflow_runs',
      arguments: { owner: d.owner, repo: d.repo, workflowId: d.workflowId, event: 'workflow_dispatch', branch: d.ref },
    },
  };
}
