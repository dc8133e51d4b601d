import { isToolError, ToolError } from '../../core/errors/tool-error.js';

/**
 * GitHub's refusals of a merge or a cancel, said as what to do next. The generic message ("the request conflicts
 * with the current state") names no way forward; GitHub's own message says what blocked it, and the tools that
 * show why (the pull request, its checks) are named beside it. GitHub's body is kept on the error.
 */

/** `message` of a GitHub error body, or undefined when the body is not GitHub's JSON. */
function githubMessage(error: ToolError): string | undefined {
  try {
    const message = (JSON.parse(error.upstreamBody ?? '') as { message?: unknown }).message;
    return typeof message === 'string' && message !== '' ? message : undefined;
  } catch {
    return undefined;
  }
}

function refusal(error: ToolError, sentence: string): ToolError {
  const said = githubMessage(error);
  return new ToolError('upstream_http_error', `${sentence}${said === undefined ? '' : ` GitHub said: "${said}".`}`, {
    status: error.status,
    upstreamBody: error.upstreamBody,
  });
}

/** A merge GitHub refused: 405 (cannot be merged as it is) or 409 (the branch moved while merging). */
export function mergeRefusal(error: unknown, where: string): unknown {
  if (!isToolError(error)) return error;
  if (error.status === 405)
    return refusal(
      error,
      `${where} was not merged: GitHub cannot merge it as it is. Look at its mergeable_state with github_get_pull_request (conflicts with the base branch, missing approvals) and at its checks with github_list_check_runs on its head.sha; if the repository does not allow this merge method, pass another.`,
    );
  if (error.status === 409)
    return refusal(
      error,
      `${where} was not merged: its head or base branch changed while merging. Read it again with github_get_pull_request, check the new commits, then merge again.`,
    );
  return error;
}

/** A cancel GitHub refused with 409: the run had already finished. */
export function cancelRefusal(error: unknown, where: string): unknown {
  if (!isToolError(error) || error.status !== 409) return error;
  return refusal(
    error,
    `${where} was not cancelled: it has already completed, so there is nothing to stop. Its outcome is in github_list_workflow_runs; rerun it with github_rerun_workflow.`,
  );
}
