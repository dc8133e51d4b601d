import type { MockReply } from './mock-upstream.js';

/** One upstream answer the conformance suite serves to every schema tool. */
export interface ConformanceCase {
  name: string;
  reply: MockReply;
}

const json = (body: unknown, headers: Record<string, string> = {}): MockReply => ({ status: 200, headers, body });

/** A GitHub-style Link header whose next page is `next` (absent when there is none). */
function link(next: number | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const url = (p: number): string => `<http://127.0.0.1/repos/octo-org/hello/actions/runs?per_page=30&page=${p}>`;
  headers.link = next === undefined ? `${url(1)}; rel="first", ${url(2)}; rel="prev"` : `${url(next)}; rel="next", ${url(9)}; rel="last"`;
  return headers;
}

const run = (id: number, name: string): Record<string, unknown> => ({
  id,
  name,
  head_branch: 'main',
  head_sha: 'acb5820ced9479c074f688cc328bf03f341a511d',
  run_number: id % 1000,
  event: 'push',
  status: 'completed',
  conclusion: id % 2 === 0 ? 'success' : 'failure',
  workflow_id: 159038,
  html_url: `https://github.com/octo-org/octo-repo/actions/runs/${id}`,
  pull_requests: [],
  created_at: '2026-10-07T16:20:11Z',
  actor: { login: 'octocat', id: 1, type: 'User', site_admin: false },
});

/** About 300 KB: over the default MCP_STRUCTURED_MAX_BYTES, so it must come back through an artifact. */
function hugePage(): Record<string, unknown> {
  const runs = Array.from({ length: 600 }, (_, i) => ({ ...run(30433642 + i, `Build ${i} — ünïcödé ✓`), display_title: 'x'.repeat(300) }));
  return { total_count: 600, workflow_runs: runs };
}

function deeplyNested(depth: number): unknown {
  let v: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) v = { level: depth - i, child: v };
  return v;
}

/**
 * Realistic and edge-case upstream answers, in each vendor's wire format: collections empty and full,
 * continuation headers and tokens, sparse objects, unicode, huge values, 204, text bodies, non-object JSON.
 * Tools that expect JSON turn some of these into error results; the suite checks those carry no structured value.
 */
export function standardCorpus(): ConformanceCase[] {
  return [
    { name: 'github page with a next page', reply: json({ total_count: 61, workflow_runs: [run(30433642, 'Build'), run(30433643, 'Test')] }, link(2)) },
    { name: 'github last page', reply: json({ total_count: 2, workflow_runs: [run(30433644, 'Deploy')] }, link(undefined)) },
    { name: 'empty collection', reply: json({ total_count: 0, workflow_runs: [] }) },
    { name: 'empty jobs page', reply: json({ total_count: 0, jobs: [] }) },
    {
      name: 'circleci pipelines with a page token',
      reply: json(
        {
          items: [
            {
              id: '5034460f-c7c4-4c43-9457-de07e2029e7b',
              state: 'created',
              number: 42,
              created_at: '2026-10-07T16:20:11.402Z',
              trigger: { type: 'webhook', actor: { login: 'octocat' } },
            },
          ],
          next_page_token: 'AARLwwV',
        },
        { etag: '"c3f1"' },
      ),
    },
    {
      name: 'jira search page',
      reply: json({
        issues: [
          {
            id: '10001',
            key: 'PLAT-1',
            fields: {
              summary: 'Crash on start',
              status: { name: 'Open' },
              description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Steps…' }] }] },
            },
          },
          { id: '10002', key: 'PLAT-2', fields: { summary: 'Slow search', status: { name: 'Done' }, customfield_10010: null } },
        ],
        isLast: true,
      }),
    },
    {
      name: 'confluence page list with _links.next',
      reply: json({
        results: [{ id: '65601', title: 'Runbook', _links: { webui: '/spaces/OPS/pages/65601' } }],
        _links: { next: '/wiki/api/v2/pages?cursor=abc' },
      }),
    },
    {
      name: 'bitbucket page with next',
      reply: json({
        pagelen: 10,
        values: [{ type: 'repository', full_name: 'team/repo' }],
        page: 1,
        next: 'https://api.bitbucket.org/2.0/repositories/team?page=2',
      }),
    },
    { name: 'sparse object', reply: json({ id: 1 }) },
    { name: 'empty object', reply: json({}) },
    { name: 'top-level array', reply: json([{ id: 1 }, { id: 2, extra: null }]) },
    { name: 'empty array', reply: json([]) },
    { name: 'json string', reply: { status: 200, headers: { 'content-type': 'application/json' }, body: '"hello"' } },
    { name: 'json number', reply: { status: 200, headers: { 'content-type': 'application/json' }, body: '42' } },
    { name: 'json true', reply: { status: 200, headers: { 'content-type': 'application/json' }, body: 'true' } },
    { name: 'json null', reply: { status: 200, headers: { 'content-type': 'application/json' }, body: 'null' } },
    {
      name: 'unicode everywhere',
      reply: json({
        'clé ✓': 'naïve café — 日本語 🚀 עברית',
        family: '👩‍👩‍👧‍👦',
        separators: 'a\u2028b\u2029c',
        control: 'nul\u0000tab\tend',
        combining: 'e\u0301',
        rtl: '\u202Eevil',
      }),
    },
    { name: 'odd keys', reply: json({ 'a.b': 1, '': 2, ' spaced key ': 3, '[0]': 4, workflow_runs: null }) },
    { name: 'numbers', reply: json({ big: 9007199254740991, neg: -12, float: 0.1, tiny: 5e-324, large: 1e300, zero: 0 }) },
    { name: 'deep nesting', reply: json(deeplyNested(60)) },
    { name: 'huge page', reply: json(hugePage()) },
    { name: '204 no content', reply: { status: 204 } },
    { name: 'empty 200 body', reply: { status: 200, headers: { 'content-type': 'application/json' }, body: '' } },
    {
      name: 'text body (a diff)',
      reply: {
        status: 200,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-Hello\n+Hello, wörld\n',
      },
    },
    { name: 'html from a proxy', reply: { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Sign in</body></html>' } },
  ];
}

/** A jq argument and an output format: every jq outcome (none, object, array, scalar, string, null, error). */
export interface Projection {
  jq?: string;
  outputFormat?: 'toon' | 'json';
}

export const STANDARD_PROJECTIONS: readonly Projection[] = [
  {},
  { outputFormat: 'json' },
  { jq: '', outputFormat: 'json' },
  { jq: '@', outputFormat: 'json' },
  { jq: '*[0]', outputFormat: 'json' },
  { jq: 'length(@)', outputFormat: 'json' },
  { jq: 'to_string(@)', outputFormat: 'json' },
  { jq: 'no_such_field', outputFormat: 'json' },
  { jq: 'keys(@)', outputFormat: 'json' },
  { jq: 'workflow_runs[*].id', outputFormat: 'json' },
  { jq: 'workflow_runs[*].{id: id, conclusion: conclusion}' },
  { jq: '[*', outputFormat: 'json' },
];
