import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { githubFixture, githubLink, structuredFixtureConfig } from '../plugins/structured/structured-fixtures.js';

/**
 * The worked examples of docs/structured-output.md, produced by real runs: the fixture plugins with the three
 * contracts, a loopback mock answering with the spec's sample data, and structured output on with the default
 * bound. Long runs of data are elided the way the page elides them; artifact ids keep only their first 4 digits.
 */
export async function structuredExamples(): Promise<Map<string, string>> {
  const mock = await MockUpstream.start();
  const kernel = await startTestKernel({
    configFile: structuredFixtureConfig(),
    env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'docs-token', MCP_STRUCTURED_OUTPUT: 'true' },
    clock: { now: () => Date.parse('2026-10-07T16:20:11.402Z') },
  });
  const examples = new Map<string, string>();
  const show = (name: string, value: unknown): void => void examples.set(name, layout(value));
  try {
    const run = { id: 30433642, conclusion: 'failure' };
    const runs = (path: string, body: unknown, link?: string): void => void mock.on('GET', path, { body, headers: link ? { link } : {} });
    runs('/repos/octo-org/empty/actions/runs', { total_count: 0, workflow_runs: [] });
    runs('/repos/octo-org/one/actions/runs', { total_count: 1, workflow_runs: [run] });
    runs(
      '/repos/octo-org/many/actions/runs',
      { total_count: 61, workflow_runs: Array.from({ length: 30 }, (_, i) => ({ ...run, id: run.id + i })) },
      githubLink(mock.url, 1, 3),
    );
    const example = (githubFixture('workflow-run-paginated').workflow_runs as object[])[0]!;
    runs(
      '/repos/octo-org/huge/actions/runs',
      { total_count: 61, workflow_runs: Array.from({ length: 35 }, (_, i) => ({ ...example, id: run.id + i })) },
      githubLink(mock.url, 1, 3),
    );
    const list = async (repo: string, extra: Record<string, unknown> = {}): Promise<CallToolResult> =>
      kernel.call('fixture_list_runs', { owner: 'octo-org', repo, ...extra });

    show('paged-empty', (await list('empty')).structuredContent);
    show('paged-one', (await list('one')).structuredContent);
    show('paged-projected', (await list('one', { jq: 'workflow_runs[*].id' })).structuredContent);
    examples.set('paged-more', layout((await list('many')).structuredContent).replace(/\[\{"id": 30433642.*\}\]/, '[ ... 30 runs ... ]'));
    const huge = await list('huge');
    show('paged-oversized', shortIds(huge.structuredContent));

    mock.on('GET', '/project/gh/octo-org/octo-repo/pipeline', {
      body: { items: [{ id: '5034460f-...', state: 'created', number: 42 }], next_page_token: 'AARLwwV...' },
    });
    const circle = (extra: Record<string, unknown> = {}): Promise<CallToolResult> =>
      kernel.call('fixture_circle_get', { path: '/project/gh/octo-org/octo-repo/pipeline', ...extra });
    show('circleci', (await circle()).structuredContent);
    show('circleci-projected', (await circle({ jq: 'items[*].id' })).structuredContent);

    mock.on('GET', '/rest/api/3/search/jql', { body: { issues: [{ key: 'PLAT-1' }, { key: 'PLAT-2' }], isLast: true } });
    mock.on('GET', '/2.0/repositories/team/repo/diff/abc', {
      headers: { 'content-type': 'text/plain' },
      body: 'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-Hello\n+Hello, world\n',
    });
    mock.on('GET', '/rest/api/3/issue/PLAT-1/watchers', { status: 204 });
    const get = (path: string, extra: Record<string, unknown> = {}): Promise<CallToolResult> => kernel.call('fixture_atlassian_get', { path, ...extra });
    show('atlassian', (await get('/rest/api/3/search/jql')).structuredContent);
    show('atlassian-projected', (await get('/rest/api/3/search/jql', { jq: 'issues[*].key' })).structuredContent);
    const diff = (await get('/2.0/repositories/team/repo/diff/abc')).structuredContent as { data: string };
    show('atlassian-text', { data: `${diff.data.split('\n')[0]}\n...` });
    show('atlassian-204', (await get('/rest/api/3/issue/PLAT-1/watchers')).structuredContent);

    show('unavailable', (await kernel.call('faulty_no_value', {})).structuredContent);
    show('artifact-read', await firstChunk(kernel, ((huge.structuredContent as Record<string, unknown>).incomplete as { artifactId: string }).artifactId));
  } finally {
    await kernel.close();
    await mock.close();
  }
  return examples;
}

async function firstChunk(kernel: TestKernel, artifactId: string): Promise<unknown> {
  const chunk = JSON.parse(textOf(await kernel.call('artifact_read', { artifactId }))) as Record<string, unknown>;
  return shortIds({ ...chunk, data: `${String(chunk.data).slice(0, 12)}...` });
}

/** Artifact ids are random: the page shows their first 4 digits. */
function shortIds(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/"([0-9a-f]{4})[0-9a-f]{28}"/g, '"$1..."'));
}

/** The page's layout: one line with spaces after `:` and `,`; a long object gets one top-level key a line. */
export function layout(value: unknown): string {
  const line = oneLine(value);
  if (line.length <= 120 || value === null || typeof value !== 'object' || Array.isArray(value)) return line;
  const entries = Object.entries(value).map(([k, v]) => `  ${JSON.stringify(k)}: ${oneLine(v)}`);
  return `{\n${entries.join(',\n')}\n}`;
}

function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${oneLine(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** The same examples with what differs run to run (artifact id digits) made comparable. */
export function comparable(text: string): string {
  return text.replace(/"[0-9a-f]{4}\.\.\."/g, '"<id>..."');
}
