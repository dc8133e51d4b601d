import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { githubFixture } from '../fixtures/github/github-api.js';
import { permissionScheme, spaceWithPermissions } from '../support/attack-atlassian.js';
import { REPO_ROOT } from '../support/paths.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { median } from './stats.js';

/**
 * What provenance fences cost a model (issue 52's budget: labels and fences add at most 5% to the tokens of a
 * typical read). Each read is answered from the public example responses, as a model reads it (content[0].text,
 * o200k_base tokens), once with fences (the default) and once with MCP_FENCE=false, unprojected and under a jq
 * projection that picks people's text. The fence's boundary is random per call, so each figure is a median.
 */

/** The budget: labels and fences add at most this share to the tokens of a typical unprojected read. */
export const PROVENANCE_TOKEN_BUDGET = 0.05;

export interface ProvenanceRead {
  tool: string;
  /** `unprojected` (the tool's default answer) or the jq expression. */
  way: string;
  args: Record<string, unknown>;
  /** Which untrusted strings the read shows, in words. */
  fenced: string;
}

export interface ProvenanceRow extends ProvenanceRead {
  without: number;
  with: number;
  /** Tokens of `_meta["mcp-devtools/provenance"]` (compact JSON), with fences. */
  meta: number;
  /** Tokens of one fence's two marks (open and close), as drawn for this read. */
  marks: number;
  /** Untrusted strings fenced in the text the model reads. */
  strings: number;
}

export interface ProvenanceBench {
  rows: ProvenanceRow[];
  /** Overall increase of the unprojected reads: summed tokens with fences over summed tokens without. */
  unprojected: { without: number; with: number };
}

const OWNER = 'octo-org';
const REPO = 'octo-repo';

/**
 * An issue as GitHub documents it, written by an outside contributor (the case fences exist for: a maintainer's
 * text is shown as written and costs nothing).
 */
function outsideIssue(number: number, title: string, association = 'CONTRIBUTOR'): Record<string, unknown> {
  // The documented example is an issue that is a pull request: without its `pull_request` key, a plain issue
  // (github_list_issues leaves pull requests out).
  const { pull_request: _pr, ...issue } = githubFixture<Record<string, unknown>>('issue-documented.json');
  return { ...issue, number, title, author_association: association };
}

/** The GitHub mock: the repository (public, for the visibility lookup), an issue, a page of issues, a pull request. */
function githubRoutes(mock: MockUpstream): void {
  mock.on('GET', `/repos/${OWNER}/${REPO}`, { body: githubFixture('repository.json') });
  mock.on('GET', `/repos/${OWNER}/${REPO}/issues/1347`, { body: outsideIssue(1347, 'Found a bug') });
  // A page from a public repository: outsiders' issues beside maintainers' ones.
  // Five: ten documented issues exceed the ~10k-token answer cap, which would cut both answers at the same size.
  const associations = ['CONTRIBUTOR', 'MEMBER', 'NONE', 'FIRST_TIME_CONTRIBUTOR', 'OWNER'];
  mock.on('GET', `/repos/${OWNER}/${REPO}/issues`, {
    body: associations.map((a, i) => outsideIssue(1347 - i, `Found a bug (${i + 1})`, a)),
  });
  mock.on('GET', `/repos/${OWNER}/${REPO}/pulls/1347`, {
    body: { ...githubFixture<Record<string, unknown>>('pull-request.json'), author_association: 'CONTRIBUTOR' },
  });
}

const atlassianFixture = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/atlassian', path), 'utf8')) as Record<string, unknown>;

/**
 * The Atlassian mocks, from the documented example answers: a Jira issue with its comments (project not readable
 * anonymously), a Confluence page (space not readable anonymously), a Bitbucket page of pull requests (repository
 * private). No MCP_TRUSTED_GROUPS or domains are set, so every author is untrusted, as on a server set up with none.
 */
function atlassianRoutes(mock: MockUpstream): void {
  mock.on('GET', '/rest/api/3/issue/PLAT-1421', { body: atlassianFixture('jira/issue.json') });
  mock.on('GET', '/rest/api/3/issue/PLAT-1421/comment', { body: atlassianFixture('jira/comments-adf.json') });
  mock.on('GET', '/rest/api/3/project/PLAT/permissionscheme', { body: permissionScheme(false) });
  mock.on('GET', '/wiki/api/v2/pages/163841', { body: atlassianFixture('confluence/page.json') });
  mock.on('GET', '/wiki/api/v2/spaces/65538', { body: { id: '65538', key: 'ENG', name: 'Engineering' } });
  mock.on('GET', '/wiki/rest/api/space/ENG', { body: spaceWithPermissions('ENG', false) });
  mock.on('GET', '/2.0/repositories/acme/checkout-service/pullrequests', { body: atlassianFixture('bitbucket/pullrequests.json') });
  mock.on('GET', '/2.0/repositories/acme/checkout-service', { body: { type: 'repository', full_name: 'acme/checkout-service', is_private: true } });
}

const repo = { owner: OWNER, repo: REPO };

export const PROVENANCE_READS: ProvenanceRead[] = [
  { tool: 'github_get_issue', way: 'unprojected', args: { ...repo, issueNumber: 1347 }, fenced: "the issue's title and body" },
  {
    tool: 'github_get_issue',
    way: '{title: title, body: body}',
    args: { ...repo, issueNumber: 1347, jq: '{title: title, body: body}' },
    fenced: 'the title and body',
  },
  {
    tool: 'github_list_issues',
    way: 'unprojected',
    args: repo,
    fenced: "the title and body of the three outsiders' issues of five",
  },
  {
    tool: 'github_list_issues',
    way: '[*].{number: number, title: title, body: body}',
    args: { ...repo, jq: '[*].{number: number, title: title, body: body}' },
    fenced: 'three titles and three bodies',
  },
  {
    tool: 'github_get_pull_request',
    way: 'unprojected',
    args: { ...repo, pullNumber: 1347 },
    fenced: "the pull request's title and body",
  },
  {
    tool: 'github_get_pull_request',
    way: '{title: title, body: body}',
    args: { ...repo, pullNumber: 1347, jq: '{title: title, body: body}' },
    fenced: 'the title and body',
  },
  {
    tool: 'jira_get_issue',
    way: 'unprojected',
    args: { issueKey: 'PLAT-1421' },
    fenced: "the summary, the description and each comment's body",
  },
  {
    tool: 'jira_get_issue',
    way: '{summary: fields.summary, description: fields.description}',
    args: { issueKey: 'PLAT-1421', outputFormat: 'json', jq: '{summary: fields.summary, description: fields.description}' },
    fenced: 'the summary and the description',
  },
  { tool: 'conf_get_page', way: 'unprojected', args: { pageId: '163841' }, fenced: "the page's title and body" },
  {
    tool: 'conf_get_page',
    way: '{title: title, body: body}',
    args: { pageId: '163841', jq: '{title: title, body: body}' },
    fenced: 'the title and body',
  },
  {
    tool: 'bb_list_pull_requests',
    way: 'unprojected',
    args: { workspace: 'acme', repoSlug: 'checkout-service' },
    fenced: "each pull request's title and description",
  },
  {
    tool: 'bb_list_pull_requests',
    way: 'values[*].{id: id, title: title, description: description}',
    args: { workspace: 'acme', repoSlug: 'checkout-service', jq: 'values[*].{id: id, title: title, description: description}' },
    fenced: 'each title and description',
  },
];

const META_KEY = 'mcp-devtools/provenance';

async function tokensOf(kernel: TestKernel, read: ProvenanceRead, runs: number): Promise<{ text: number; meta: number; marks: number; strings: number }> {
  const text: number[] = [];
  const meta: number[] = [];
  const marks: number[] = [];
  const strings: number[] = [];
  for (let i = 0; i < runs; i++) {
    const result = await kernel.call(read.tool, read.args);
    if (result.isError === true) throw new Error(`${read.tool} (${read.way}) failed: ${textOf(result)}`);
    text.push(countTokens(textOf(result)));
    const provenance = result._meta?.[META_KEY] as { fence: string | null } | undefined;
    meta.push(countTokens(JSON.stringify(provenance ?? null)));
    const [open, close] = provenance?.fence?.split('…') ?? ['', ''];
    marks.push(countTokens(open!) + countTokens(close!));
    // Each fenced string holds one closing mark; the header's statement of the fence (`open…close`) one more.
    const count = (needle: string): number => textOf(result).split(needle).length - 1;
    strings.push(close === '' ? 0 : count(close!) - count(`${open}…${close}`));
  }
  return { text: median(text), meta: median(meta), marks: median(marks), strings: median(strings) };
}

async function kernelFor(mock: MockUpstream, fence: boolean): Promise<TestKernel> {
  return startTestKernel({
    configFile: { content: JSON.stringify({ plugins: ['github', 'jira', 'confluence', 'bitbucket'] }) },
    env: {
      GITHUB_API_URL: mock.url,
      GITHUB_TOKEN: 'ghp_provenanceBenchToken0123456789',
      ATLASSIAN_SITE_NAME: 'acme',
      ATLASSIAN_USER_EMAIL: 'mia.krystof@acme.example',
      ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-provenance-bench-token',
      JIRA_BASE_URL: mock.url,
      JIRA_DEPLOYMENT: 'cloud',
      CONFLUENCE_BASE_URL: mock.url,
      CONFLUENCE_DEPLOYMENT: 'cloud',
      BITBUCKET_BASE_URL: mock.url,
      MCP_FENCE: String(fence),
    },
  });
}

/** Every read of PROVENANCE_READS, `runs` times with fences and `runs` times without. */
export async function benchProvenanceTokens(runs = 15): Promise<ProvenanceBench> {
  const mock = await MockUpstream.start();
  githubRoutes(mock);
  atlassianRoutes(mock);
  const fenced = await kernelFor(mock, true);
  const plain = await kernelFor(mock, false);
  try {
    const rows: ProvenanceRow[] = [];
    for (const read of PROVENANCE_READS) {
      const on = await tokensOf(fenced, read, runs);
      const off = await tokensOf(plain, read, runs);
      rows.push({ ...read, without: off.text, with: on.text, meta: on.meta, marks: on.marks, strings: on.strings });
    }
    const unprojected = rows.filter((r) => r.way === 'unprojected');
    return {
      rows,
      unprojected: { without: unprojected.reduce((s, r) => s + r.without, 0), with: unprojected.reduce((s, r) => s + r.with, 0) },
    };
  } finally {
    await fenced.close();
    await plain.close();
    await mock.close();
  }
}
