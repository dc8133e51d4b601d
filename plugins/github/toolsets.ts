import type { ToolsetSpec } from '../../core/plugin/contract.js';

/**
 * GitHub's toolsets, as github-mcp-server groups them. The default ones serve the jobs agents are asked to do
 * most (why is CI red and rerun it, file or triage an issue, open and review a pull request); repositories
 * (files, listings) and the REST passthrough are one `--toolsets github.repos` away.
 */
export const GITHUB_TOOLSETS: Record<string, ToolsetSpec> = {
  'github.actions': { description: 'Workflow runs, jobs, logs and checks; rerun, cancel and dispatch workflows.' },
  'github.issues': { description: 'Search, read, file and update issues; comment on issues and pull requests.' },
  'github.pull_requests': { description: 'List and read pull requests and their diffs; open, review and merge them.' },
  'github.repos': { description: 'Repositories, files and directories, and read-only passthroughs to the REST and GraphQL APIs.', default: false },
};
