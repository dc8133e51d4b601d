import { inject } from 'tsyringe';
import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import type { Settings } from '../../core/config/settings.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { DevtoolsPlugin, ServiceLookup } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { TOKENS } from '../../core/tokens.js';
import { JOB_LOGS, LIST_CHECK_RUNS, LIST_JOBS, LIST_RUNS } from './actions-reads.js';
import { CANCEL_WORKFLOW_RUN, DISPATCH_WORKFLOW, RERUN_WORKFLOW } from './actions-writes.js';
import { createGithubClient, DIFF_MEDIA_TYPE, GithubSettings, githubWebUrl, RAW_MEDIA_TYPE } from './github-client.js';
import type { GithubDeps } from './github-deps.js';
import { ADD_COMMENT, CREATE_ISSUE, GET_ISSUE, LIST_ISSUES, SEARCH_ISSUES, UPDATE_ISSUE } from './issue-tools.js';
import { GET, GRAPHQL } from './passthrough-tools.js';
import { GET_PULL_REQUEST, GET_PULL_REQUEST_DIFF, LIST_PULL_REQUESTS } from './pull-request-reads.js';
import { CREATE_PULL_REQUEST, CREATE_REVIEW, MERGE_PULL_REQUEST } from './pull-request-writes.js';
import { GET_FILE, LIST_REPOSITORIES } from './repo-tools.js';
import { GITHUB_TOOLSETS } from './toolsets.js';
import { labelledWhole } from '../../core/plugin/whole-result-label.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import { repositoryListLabels, workflowRunLabels } from './provenance.js';

const ResponseLimit = Type.Pick(CoreSettings, ['MCP_MAX_RESPONSE_BYTES']);

// Each run's title and commit message: a fork's build is untrusted (provenance.ts, no lookup).
const LABELLED_LIST_RUNS = {
  spec: { ...LIST_RUNS.spec, provenance: { labels: true } },
  handler: async (ctx: AnyToolContext, github: GithubDeps) => {
    const output = await LIST_RUNS.handler(ctx, github);
    return { ...output, provenance: workflowRunLabels(output.value) };
  },
};

// Each repository's description, labelled by the repository's own visibility (no lookup).
const LABELLED_LIST_REPOSITORIES = {
  spec: { ...LIST_REPOSITORIES.spec, provenance: { labels: true } },
  handler: async (ctx: AnyToolContext, github: GithubDeps) => {
    const output = await LIST_REPOSITORIES.handler(ctx, github);
    return { ...output, provenance: repositoryListLabels(output.value) };
  },
};

// A GraphQL answer may hold any object's text and does not say whose: untrusted and private as a whole.
const LABELLED_GRAPHQL = labelledWhole(GRAPHQL, () => ({
  item: 'a GraphQL answer',
  resource: 'github:unknown',
  why: 'a GraphQL answer is not labelled object by object',
}));

/** The tools, in the order tools/list shows them: the reads, then the writes. */
const TOOLS = [
  ...[LABELLED_LIST_RUNS, LIST_JOBS, JOB_LOGS, LIST_PULL_REQUESTS, LIST_ISSUES, LABELLED_LIST_REPOSITORIES, GET_PULL_REQUEST, GET_ISSUE, GET_PULL_REQUEST_DIFF],
  ...[GET_FILE, GET, LABELLED_GRAPHQL, SEARCH_ISSUES, LIST_CHECK_RUNS],
  ...[CREATE_ISSUE, UPDATE_ISSUE, ADD_COMMENT, CREATE_PULL_REQUEST, CREATE_REVIEW, MERGE_PULL_REQUEST],
  ...[RERUN_WORKFLOW, CANCEL_WORKFLOW_RUN, DISPATCH_WORKFLOW],
];

/**
 * GitHub: workflow runs, jobs, logs and checks (actions-reads.ts), pull requests and issues, files and
 * repositories, read-only REST and GraphQL passthroughs, and the writes an agent is asked for around a red build:
 * file, edit and comment on issues, open, review and merge pull requests, rerun, cancel and start workflows. One
 * file per family holds each tool whole (name, schemas, route, handler); this class is what their handlers use
 * (GithubDeps). GitHub Enterprise Server works through GITHUB_API_URL.
 */
@Plugin({ name: 'github', version: '1.0.0', settings: GithubSettings, toolsets: GITHUB_TOOLSETS, tools: TOOLS })
export class GithubPlugin implements DevtoolsPlugin, GithubDeps {
  readonly upstream: UpstreamClient;
  readonly maxBytes: number;
  readonly web: string;
  readonly pollMs: number;
  // The clients of one tool each, built by its first call: a start (often without GitHub served) builds one client.
  private diffClient: UpstreamClient | undefined;
  private rawClient: UpstreamClient | undefined;
  constructor(
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.ArtifactStore) readonly artifacts: ArtifactStore,
    @inject(TOKENS.Scrubber) readonly scrub: Scrub,
    @inject(TOKENS.Services) readonly services: ServiceLookup,
  ) {
    this.upstream = createGithubClient(settings);
    this.maxBytes = settings.of(ResponseLimit).MCP_MAX_RESPONSE_BYTES;
    this.web = githubWebUrl(settings.of(GithubSettings).GITHUB_API_URL);
    this.pollMs = settings.of(GithubSettings).CI_WAIT_POLL_MS;
  }

  /** The client that asks for a pull request as a diff (github_get_pull_request_diff). */
  get diffs(): UpstreamClient {
    return (this.diffClient ??= createGithubClient(this.settings, DIFF_MEDIA_TYPE));
  }

  /** The client that asks for a file's raw bytes (github_get_file, past the contents API's size). */
  get raw(): UpstreamClient {
    return (this.rawClient ??= createGithubClient(this.settings, RAW_MEDIA_TYPE));
  }
}
