import { countTokens } from 'gpt-tokenizer';
import { encode as encodeLatestToon } from 'toon-latest';
import { applyJq } from '../../plugins/projection/apply-jq.js';
import { renderValue } from '../../plugins/toon/render.js';
import { pipelines } from '../fixtures/circleci/circleci-api.js';
import { bitbucketPullRequestPage, confluenceSearchPage, jiraSearchPage } from '../fixtures/atlassian/generated.js';
import { workflowJobs, workflowRuns } from '../fixtures/github/github-api.js';
import { TYPICAL_JIRA_JQ } from './jira-bodies.js';

export const RENDERINGS = ['pretty JSON', 'compact JSON', 'TOON 2.3.1', 'TOON latest'] as const;
export type Rendering = (typeof RENDERINGS)[number];

export interface TokenRow {
  dataset: string;
  jq: string | undefined;
  sizes: Record<Rendering, { bytes: number; tokens: number }>;
}

/** Real-shaped pages (the fixtures' payloads, renumbered) and the projection an agent typically asks for. */
function datasets(): Array<{ name: string; value: unknown; jq: string }> {
  return [
    {
      name: 'GitHub workflow runs (30)',
      value: { total_count: 30, workflow_runs: workflowRuns(30) },
      jq: 'workflow_runs[*].{id: id, name: name, status: status, conclusion: conclusion, branch: head_branch, created: created_at}',
    },
    {
      name: 'GitHub jobs (20)',
      value: { total_count: 20, jobs: workflowJobs(20) },
      jq: "jobs[*].{id: id, name: name, status: status, conclusion: conclusion, failed: steps[?conclusion=='failure'].name}",
    },
    { name: 'Jira search (20 issues)', value: JSON.parse(jiraSearchPage(20)), jq: TYPICAL_JIRA_JQ },
    {
      name: 'Confluence search (20 pages)',
      value: JSON.parse(confluenceSearchPage(20)),
      jq: 'results[*].{id: content.id, title: content.title, url: url, modified: lastModified}',
    },
    {
      name: 'Bitbucket pull requests (20)',
      value: JSON.parse(bitbucketPullRequestPage(20)),
      jq: 'values[*].{id: id, title: title, state: state, author: author.display_name, branch: source.branch.name}',
    },
    {
      name: 'CircleCI pipelines (20)',
      value: { items: pipelines(20), next_page_token: null },
      jq: 'items[*].{number: number, state: state, branch: vcs.branch, created: created_at}',
    },
  ];
}

/** Each rendering of a value as the model would receive it. TOON 2.3.1 is the renderer of every tool. */
function render(value: unknown, rendering: Rendering): string {
  switch (rendering) {
    case 'pretty JSON':
      return renderValue(value, 'json');
    case 'compact JSON':
      return JSON.stringify(value);
    case 'TOON 2.3.1':
      return renderValue(value, 'toon');
    case 'TOON latest':
      return encodeLatestToon(value, { indent: 2 });
  }
}

/** Bytes (UTF-8) and tokens (o200k_base, gpt-tokenizer) of each rendering, with and without the dataset's jq. */
export function benchTokens(): TokenRow[] {
  const rows: TokenRow[] = [];
  for (const d of datasets()) {
    for (const jq of [undefined, d.jq]) {
      const sizes = {} as TokenRow['sizes'];
      for (const rendering of RENDERINGS) {
        const value = applyJq(d.value, jq, rendering.startsWith('TOON') ? 'toon' : 'json');
        const text = render(value, rendering);
        sizes[rendering] = { bytes: Buffer.byteLength(text, 'utf8'), tokens: countTokens(text) };
      }
      rows.push({ dataset: d.name, jq, sizes });
    }
  }
  return rows;
}
