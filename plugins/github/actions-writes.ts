import Type, { type Static } from 'typebox';
import { defineTool } from '../../core/plugin/define-tool.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { repoUrl, runWhere, type GithubDeps } from './github-deps.js';
import { definedOnly, Owner, Repo, repoPath, RunId, write } from './shared-args.js';
import { cancelRefusal } from './write-refusals.js';
import { cancelResult, dispatchedRun, dispatchResult, rerunResult } from './write-results.js';
import { onEnterpriseServer } from './github-client.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { detachableWhenWaiting, RunWaitArgs } from '../../core/vendor/run-wait.js';
import { NO_LABELS } from '../../core/vendor/failure-reporter.js';
import { runReads, waitForRun } from './run-wait.js';

// GitHub Actions writes: rerun, cancel, start a workflow. Each sends its `ctx.route`, the request policy decided
// on (and an approver saw).

export const RerunArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    runId: RunId,
    failedOnly: Type.Optional(Type.Boolean({ default: true, description: 'Only the failed jobs and those that depend on them.' })),
    ...RunWaitArgs,
  },
  { additionalProperties: false },
);

export const CancelArgs = Type.Object({ owner: Owner, repo: Repo, runId: RunId }, { additionalProperties: false });

export const DispatchArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    workflowId: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[A-Za-z0-9_.-]{1,255}$' })], {
      description: 'Workflow id or file name ("deploy.yml").',
    }),
    ref: Type.String({ minLength: 1, description: 'Branch or tag to run it on.' }),
    inputs: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
        maxProperties: 25,
        description: 'Its workflow_dispatch inputs; omitted ones take their defaults.',
      }),
    ),
    ...RunWaitArgs,
  },
  { additionalProperties: false },
);

export const RERUN_WORKFLOW = defineTool({
  name: 'github_rerun_workflow',
  toolset: 'github.actions',
  title: 'Rerun a GitHub Actions workflow run',
  description: 'Rerun a completed workflow run: its failed jobs (default) or all of them. Result {data}: run_id, rerun, html_url.',
  annotations: write(),
  input: RerunArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof RerunArgs>) => ({
    method: 'POST',
    path: `${repoPath(args)}/actions/runs/${args.runId}/${args.failedOnly === false ? 'rerun' : 'rerun-failed-jobs'}`,
  }),
  further: (args: Static<typeof RerunArgs>) => (args.wait === true ? runReads(args) : []),
  // A failed run waited on is answered with its failure report, which quotes build logs
  // and saves the whole log as an artifact.
  provenance: { labels: true },
  savesArtifacts: true,
  detachable: detachableWhenWaiting,
  handler: async (ctx, github: GithubDeps) => {
    // 201 with an empty object: the answer says no more than the request did.
    // GitHub's clock stamps the new attempt: half a minute of slack for two clocks apart (a completed attempt
    // rerun within half a minute of its start is then taken for the new one).
    const sentAt = Date.now() - 30_000;
    await github.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    const result = rerunResult(runWhere(github, ctx.args), ctx.args.failedOnly !== false);
    if (ctx.args.wait !== true) return { value: result, provenance: NO_LABELS };
    const waited = await waitForRun(ctx, github, ctx.args, ctx.args.timeoutSeconds, sentAt);
    return { value: { ...result, ...waited.value }, provenance: waited.provenance };
  },
});

export const CANCEL_WORKFLOW_RUN = defineTool({
  name: 'github_cancel_workflow_run',
  toolset: 'github.actions',
  title: 'Cancel a GitHub Actions workflow run',
  description: 'Cancel a queued or running workflow run; it stops within seconds. Result {data}: run_id, state, html_url.',
  annotations: write({ destructive: true, idempotent: true }),
  input: CancelArgs,
  envelope: ReadEnvelope,
  route: (args: Static<typeof CancelArgs>) => ({ method: 'POST', path: `${repoPath(args)}/actions/runs/${args.runId}/cancel` }),
  handler: async (ctx, github: GithubDeps) => {
    const { owner, repo, runId } = ctx.args;
    await github.upstream.send(ctx, ctx.route, { expect: 'lenient' }).catch((error: unknown) => {
      throw cancelRefusal(error, `Workflow run ${runId} of ${owner}/${repo}`);
    });
    return { value: cancelResult(runWhere(github, ctx.args)) };
  },
});

export const DISPATCH_WORKFLOW = defineTool({
  name: 'github_dispatch_workflow',
  toolset: 'github.actions',
  title: 'Start a GitHub Actions workflow',
  description:
    'Start a workflow that has a workflow_dispatch trigger, on a branch or tag. Result {data}: what was dispatched and where its runs appear (github_list_workflow_runs).',
  annotations: write(),
  input: DispatchArgs,
  envelope: ReadEnvelope,
  // github.com and GHE.com answer with the new run when asked (return_run_details); Enterprise Server does not offer it.
  route: (args: Static<typeof DispatchArgs>, upstream?: UpstreamBinding) => ({
    method: 'POST',
    path: `${repoPath(args)}/actions/workflows/${encodeURIComponent(String(args.workflowId))}/dispatches`,
    body: definedOnly({ ref: args.ref, inputs: args.inputs, return_run_details: onEnterpriseServer(upstream) ? undefined : true }),
  }),
  further: (args: Static<typeof DispatchArgs>) => (args.wait === true ? runReads({ ...args, runId: '*' }) : []),
  // A failed run waited on is answered with its failure report, which quotes build logs
  // and saves the whole log as an artifact.
  provenance: { labels: true },
  savesArtifacts: true,
  detachable: detachableWhenWaiting,
  handler: async (ctx, github: GithubDeps) => {
    // 200 with the run where it was asked for; else 204 No Content, the run appearing a few seconds later.
    const response = await github.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    const run = dispatchedRun(response.body);
    const result = dispatchResult({ ...ctx.args, repoUrl: repoUrl(github, ctx.args), run });
    if (ctx.args.wait !== true) return { value: result, provenance: NO_LABELS };
    // Enterprise Server names no run: there is nothing to wait for that is surely this dispatch's.
    if (run === undefined)
      return {
        value: { ...result, status: 'GitHub did not name the run it started, so it was not waited for: find it with the runs call.' },
        provenance: NO_LABELS,
      };
    const waited = await waitForRun(ctx, github, { ...ctx.args, runId: run.run_id }, ctx.args.timeoutSeconds);
    return { value: { ...result, ...waited.value }, provenance: waited.provenance };
  },
});
