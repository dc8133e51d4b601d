import { inject, Plugin, TOKENS, type Settings, type UpstreamClient } from 'mcp-devtools/plugin';
import { createGitlabClient, GitlabSettings } from './gitlab-client.js';
import { get, listPipelineJobs, listPipelines, type GitlabDeps } from './gitlab-tools.js';

/**
 * GitLab CI/CD: pipelines and their jobs (paged), and a read-only passthrough for the rest of the REST API, each
 * tool one value in gitlab-tools.ts. The plugin instance is what their handlers are given: the client it built.
 */
@Plugin({ name: 'gitlab', version: '1.0.0', settings: GitlabSettings, tools: [listPipelines, listPipelineJobs, get] })
export class GitlabPlugin implements GitlabDeps {
  readonly upstream: UpstreamClient;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.upstream = createGitlabClient(settings);
  }
}
