import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { callOrderText } from './call-order.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { REPO_ROOT } from '../support/paths.js';
import { startTestKernel } from '../support/test-kernel.js';
import { githubFixture, githubLink, structuredFixtureConfig } from '../plugins/structured/structured-fixtures.js';
import { WireExchange, type Era } from './wire-exchange.js';

/** Where the reviewed snapshots live (in the source tree, not in build/). */
export const GOLDEN_DIR = join(REPO_ROOT, 'test/golden');

/** One serialized file per snapshot: pretty JSON with a final newline, so a diff reads well in review. */
export type Snapshots = Record<string, string>;

const serialize = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The built-in server as it starts without a config file (every plugin), flag off: its tools/list. */
async function builtInToolsList(env: Record<string, string>): Promise<unknown> {
  const kernel = await startTestKernel({ env });
  try {
    return { protocolVersion: '2025-11-25', tools: kernel.kernel.listTools('2025-11-25') };
  } finally {
    await kernel.close();
  }
}

/**
 * The built-in server (every plugin) on the wire of 2026-07-28 with structured output on: its tools/list as a
 * modern client reads it, every tool's output schema included.
 */
async function builtInWireToolsList(): Promise<unknown> {
  const kernel = await startTestKernel({ env: { MCP_STRUCTURED_OUTPUT: 'true' } });
  try {
    const { exchange } = await WireExchange.open(kernel.kernel, '2026-07-28');
    try {
      const { result } = (await exchange.request('tools/list')) as { result: { tools: unknown[] } };
      return { protocolVersion: '2026-07-28', tools: result.tools };
    } finally {
      await exchange.close();
    }
  } finally {
    await kernel.close();
  }
}

/**
 * Every built-in tool's pipeline, with every part on (a policy, an audit log, structured output): its stage
 * middleware and upstream interceptors in running order, beside the definition they follow (pipeline.ts).
 */
async function builtInPipelines(): Promise<{ chains: unknown; jiraGetOrder: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'golden-pipelines-'));
  writeFileSync(join(dir, 'policy.yaml'), 'version: 1\nrules:\n  - { id: all, effect: allow }\n');
  const kernel = await startTestKernel({
    env: { MCP_STRUCTURED_OUTPUT: 'true', MCP_POLICY_FILE: join(dir, 'policy.yaml'), MCP_AUDIT_LOG: join(dir, 'audit.jsonl') },
  });
  try {
    const names = kernel.kernel
      .definitions()
      .map((d) => d.spec.name)
      .sort();
    return {
      chains: { pipeline: kernel.kernel.pipelineOrder().stages, tools: Object.fromEntries(names.map((name) => [name, kernel.kernel.pipelineOf(name)])) },
      jiraGetOrder: callOrderText(kernel.kernel, 'jira_get'),
    };
  } finally {
    await kernel.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The calls whose results are pinned: every contract, text endpoints, 204, jq outcomes, errors with and without _meta. */
export const GOLDEN_CALLS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['fixture_list_runs', { owner: 'octo-org', repo: 'octo-repo' }],
  ['fixture_list_runs', { owner: 'octo-org', repo: 'octo-repo', outputFormat: 'json' }],
  ['fixture_list_runs', { owner: 'octo-org', repo: 'octo-repo', jq: 'workflow_runs[*].{id: id, conclusion: conclusion}' }],
  ['fixture_list_runs', { owner: 'octo-org', repo: 'octo-repo', page: 2, jq: 'total_count' }],
  ['fixture_list_runs', { owner: 'octo-org', repo: 'empty' }],
  ['fixture_list_runs', { owner: 'octo-org', repo: 'octo-repo', jq: 'workflow_runs[' }],
  ['fixture_circle_get', { path: '/project/gh/octo-org/octo-repo/pipeline', jq: 'items[*].id' }],
  ['fixture_atlassian_get', { path: '/rest/api/3/search/jql', outputFormat: 'json' }],
  ['fixture_atlassian_get', { path: '/rest/api/3/search/jql', jq: 'issues[*].key' }],
  ['fixture_atlassian_get', { path: '/2.0/repositories/team/repo/diff/abc' }],
  ['fixture_atlassian_get', { path: '/rest/api/3/issue/PLAT-1/watchers' }],
  ['fixture_atlassian_post', { path: '/rest/api/3/issue', body: { fields: { summary: 'New' } } }],
  ['fixture_get', { path: '/missing' }],
  ['faulty_no_value', {}],
  ['faulty_refused', {}],
  ['faulty_array_root', {}],
  ['artifact_read', { artifactId: '0'.repeat(32) }],
  ['artifact_read', {}],
];

/** Answers of the loopback mock for GOLDEN_CALLS, in the vendors' wire formats. */
export function programGoldenUpstream(mock: MockUpstream): void {
  const runs = githubFixture('workflow-run-paginated');
  mock.on('GET', '/repos/octo-org/octo-repo/actions/runs', (request) => ({
    body: runs,
    headers: { link: githubLink(mock.url, Number(request.query.get('page') ?? 1), 3) },
  }));
  mock.on('GET', '/repos/octo-org/empty/actions/runs', { body: { total_count: 0, workflow_runs: [] } });
  mock.on('GET', '/project/gh/octo-org/octo-repo/pipeline', {
    body: { items: [{ id: '5034460f-c7c4-4c43-9457-de07e2029e7b', state: 'created', number: 42 }], next_page_token: 'AARLwwV' },
  });
  mock.on('GET', '/rest/api/3/search/jql', { body: { issues: [{ key: 'PLAT-1' }, { key: 'PLAT-2' }], isLast: true } });
  mock.on('GET', '/2.0/repositories/team/repo/diff/abc', {
    headers: { 'content-type': 'text/plain' },
    body: 'diff --git a/README.md b/README.md\n-Hello\n+Hello, wörld\n',
  });
  mock.on('GET', '/rest/api/3/issue/PLAT-1/watchers', { status: 204 });
  mock.on('POST', '/rest/api/3/issue', { status: 201, body: { id: '10003', key: 'PLAT-3' } });
}

/** A kernel with the fixture plugins and the golden mock, for `use`; closed afterwards. */
async function withGoldenKernel<T>(
  env: Record<string, string>,
  configExtra: Record<string, unknown>,
  use: (kernel: Awaited<ReturnType<typeof startTestKernel>>) => Promise<T>,
): Promise<T> {
  const mock = await MockUpstream.start();
  programGoldenUpstream(mock);
  const kernel = await startTestKernel({
    configFile: structuredFixtureConfig(configExtra),
    env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'golden-token', ...env },
    clock: { now: () => Date.parse('2026-10-07T16:20:11.402Z') },
  });
  try {
    return await use(kernel);
  } finally {
    await kernel.close();
    await mock.close();
  }
}

/** Runs GOLDEN_CALLS against a kernel started with `env` (plus the fixture plugins and the golden mock). */
export async function goldenResults(
  env: Record<string, string>,
  configExtra: Record<string, unknown> = {},
): Promise<Array<{ call: unknown; result: CallToolResult }>> {
  return withGoldenKernel(env, configExtra, async (kernel) => {
    const out: Array<{ call: unknown; result: CallToolResult }> = [];
    for (const [tool, args] of GOLDEN_CALLS) out.push({ call: { tool, args }, result: await kernel.call(tool, args) });
    return out;
  });
}

/**
 * The wire in one era, structured output on: the opening exchange, tools/list and every GOLDEN_CALL, as the
 * server sends them (2026-07-28 adds `resultType` and the server's identity in `_meta`, and may carry
 * schemas and values of any root; 2025-11-25 gets object roots only).
 */
async function wireGolden(era: Era): Promise<unknown> {
  return withGoldenKernel({ MCP_STRUCTURED_OUTPUT: 'true' }, {}, async (kernel) => {
    const { exchange, opening } = await WireExchange.open(kernel.kernel, era);
    try {
      const tools = await exchange.request('tools/list');
      const calls: unknown[] = [];
      for (const [tool, args] of GOLDEN_CALLS)
        calls.push({ call: { tool, args }, response: await exchange.request('tools/call', { name: tool, arguments: args }) });
      return { era, opening, tools, calls };
    } finally {
      await exchange.close();
    }
  });
}

/**
 * Every golden file, generated now from the real code: in-process with structured output off (the default), and
 * on the wire in each era with it on (the built-in tools/list of 2026-07-28, the fixture plugins' whole exchange).
 */
export async function goldenSnapshots(): Promise<Snapshots> {
  const pipelines = await builtInPipelines();
  return {
    'tools-list.json': serialize(await builtInToolsList({})),
    'tools-list-2026-07-28.json': serialize(await builtInWireToolsList()),
    'results.json': serialize(await goldenResults({})),
    'wire-2025-11-25.json': serialize(await wireGolden('2025-11-25')),
    'wire-2026-07-28.json': serialize(await wireGolden('2026-07-28')),
    'pipeline-chains.json': serialize(pipelines.chains),
    'call-order.txt': pipelines.jiraGetOrder,
  };
}
