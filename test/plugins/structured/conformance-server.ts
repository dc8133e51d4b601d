import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Projection } from '../../../server/testing/conformance-corpus.js';
import { standardCorpus } from '../../../server/testing/conformance-corpus.js';
import { VENDORS } from '../../../server/bootstrap/builtin-plugins.js';
import { FIXTURE_PLUGIN_PATH } from '../../support/fixture-plugin.js';
import { FAULTY_FIXTURE_PATH, githubFixture, STRUCTURED_FIXTURE_PATH } from './structured-fixtures.js';
import { vendorSettingsAgainst } from './vendor-env.js';

/**
 * A server folder with every built-in vendor plus the fixture plugins (Paged, CircleCI-like and Atlassian-like
 * envelopes; with `faulty`, the defects too: an array-rooted schema, a tool with no value, a refusal), all
 * pointed at one loopback mock, structured output on unless `structured` says otherwise.
 */
export async function conformanceServerFolder(
  mockUrl: string,
  options: { structured?: boolean; faulty?: boolean } = {},
): Promise<{ cwd: string; env: Record<string, string> }> {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-conformance-'));
  const plugins = [...Object.keys(VENDORS), FIXTURE_PLUGIN_PATH, STRUCTURED_FIXTURE_PATH, ...(options.faulty ? [FAULTY_FIXTURE_PATH] : [])];
  writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins }));
  const env = {
    ...(await vendorSettingsAgainst(cwd, mockUrl)),
    FIXTURE_BASE_URL: mockUrl,
    FIXTURE_TOKEN: 'conformance-token',
    MCP_STRUCTURED_OUTPUT: String(options.structured ?? true),
    // The typed tools' Cloud requests: the loopback mock's address would make them Data Center's.
    JIRA_DEPLOYMENT: 'cloud',
    CONFLUENCE_DEPLOYMENT: 'cloud',
  };
  return { cwd, env };
}

/** Bitbucket's Downloads listing (what bb_upload checks names against) as its last page: no `next`. */
export const BITBUCKET_DOWNLOADS = {
  name: 'bitbucket downloads listing',
  reply: {
    status: 200,
    body: {
      pagelen: 100,
      values: [{ name: 'previous-build.zip', type: 'download', size: 2048, downloads: 3, created_on: '2026-10-01T09:00:00.000000+00:00' }],
      page: 1,
      size: 1,
    },
  },
};

/** GitHub's check runs of a commit (what github_list_check_runs summarizes), as its last page. */
export const GITHUB_CHECK_RUNS = { name: 'github check runs page', reply: { status: 200, body: githubFixture('check-run-paginated') } };

/** A GraphQL answer as GitHub gives one (github_graphql refuses an answer without `data`, as GitHub's errors). */
export const GITHUB_GRAPHQL = {
  name: 'github graphql answer',
  reply: { status: 200, body: { data: { viewer: { login: 'octocat', repositories: { totalCount: 8 } } } } },
};

/** An issue's transitions (what jira_transition_issue reads first), holding the one the conformance call names. */
export const JIRA_TRANSITIONS = {
  name: 'jira transitions of an issue',
  reply: { status: 200, body: { expand: 'transitions', transitions: [{ id: '31', name: 'Done', to: { name: 'Done', id: '10002' } }] } },
};

/** A Cloud space search by key (what conf_create_page reads first), finding the conformance call's space. */
export const CONFLUENCE_SPACES = {
  name: 'confluence spaces by key',
  reply: { status: 200, body: { results: [{ id: '65538', key: 'ENG', name: 'Engineering' }], _links: {} } },
};

/** Paths inside each product's API boundary, for the tools whose path rules refuse the generic placeholder. */
const PRODUCT_PATHS: Record<string, string> = { jira_get: '/rest/api/3/conformance', conf_get: '/wiki/api/v2/conformance' };
/** bb_upload needs a file whose content decodes; the arguments derived from its schema have none. */
const UPLOAD_ARGS = { workspace: 'acme', repoSlug: 'app', files: [{ name: 'report.txt', content: Buffer.from('conformance\n').toString('base64') }] };
/** github_update_issue refuses a call that changes nothing; the arguments derived from its schema change nothing. */
const UPDATE_ISSUE_ARGS = { owner: 'octo-org', repo: 'octo-repo', issueNumber: 1347, state: 'closed' };
/** Typed tools' arguments: keys, ids, slugs and Markdown their schemas accept (the generic placeholder does not). */
const TYPED_ARGS: Record<string, Record<string, unknown>> = {
  circleci_pipeline_status: { projectSlug: 'gh/acme/app', branch: 'main' },
  circleci_rerun_workflow: { workflowId: '5034460f-c7c4-4c43-9457-de07e2029e7b' },
  circleci_trigger_pipeline: { projectSlug: 'gh/acme/app' },
  circleci_job_tests: { projectSlug: 'gh/acme/app', jobNumber: 1 },
  circleci_flaky_tests: { projectSlug: 'gh/acme/app' },
  jira_search: { jql: 'project = PLAT' },
  jira_get_issue: { issueKey: 'PLAT-1' },
  jira_create_issue: { projectKey: 'PLAT', issueType: 'Task', summary: 'Conformance', description: '**conformance**' },
  jira_update_issue: { issueKey: 'PLAT-1', summary: 'Conformance' },
  jira_transition_issue: { issueKey: 'PLAT-1', transition: '31' },
  jira_add_comment: { issueKey: 'PLAT-1', body: 'conformance' },
  conf_search: { cql: 'type = page' },
  conf_get_page: { pageId: '163841' },
  conf_create_page: { spaceKey: 'ENG', title: 'Conformance', body: 'conformance' },
  conf_update_page: { pageId: '163841', title: 'Conformance', body: 'conformance', version: 7 },
  conf_add_comment: { pageId: '163841', body: 'conformance' },
  github_graphql: { query: 'query Conformance { viewer { login repositories { totalCount } } }' },
};

export const conformanceArgsFor = (tool: { name: string }): Record<string, unknown> | undefined => {
  if (tool.name === 'bb_upload') return UPLOAD_ARGS;
  if (tool.name === 'github_update_issue') return UPDATE_ISSUE_ARGS;
  return TYPED_ARGS[tool.name] ?? (PRODUCT_PATHS[tool.name] === undefined ? undefined : { path: PRODUCT_PATHS[tool.name] });
};

/**
 * A part of the corpus that still meets every promise: pages (GitHub's, and CircleCI's items the typed circleci_*
 * tools read), emptiness, unicode, a spill, 204, text, null, and the Downloads listing bb_upload reads.
 */
export function representativeCorpus(): ReturnType<typeof standardCorpus> {
  const wanted = new Set([
    'github page with a next page',
    'circleci pipelines with a page token',
    'empty collection',
    'unicode everywhere',
    'huge page',
    '204 no content',
    'text body (a diff)',
    'json null',
  ]);
  return [...standardCorpus().filter((c) => wanted.has(c.name)), BITBUCKET_DOWNLOADS, GITHUB_CHECK_RUNS, GITHUB_GRAPHQL, JIRA_TRANSITIONS, CONFLUENCE_SPACES];
}

export const REPRESENTATIVE_PROJECTIONS: Projection[] = [
  {},
  { outputFormat: 'json' },
  { jq: 'no_such_field', outputFormat: 'json' },
  { jq: '[*', outputFormat: 'json' },
];
