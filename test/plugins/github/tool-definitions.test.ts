import type { Tool } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { readToolSpecs } from '../../../core/plugin/metadata.js';
import { GithubPlugin } from '../../../plugins/github/index.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

/** The toolset of each GitHub tool: what `--toolsets github.actions` and the others select. */
const TOOLSETS: Record<string, string[]> = {
  'github.actions': [
    'github_list_workflow_runs',
    'github_list_workflow_jobs',
    'github_get_job_logs',
    'github_rerun_workflow',
    'github_cancel_workflow_run',
    'github_dispatch_workflow',
    'github_list_check_runs',
  ],
  'github.issues': ['github_list_issues', 'github_get_issue', 'github_search_issues', 'github_create_issue', 'github_update_issue', 'github_add_comment'],
  'github.pull_requests': [
    'github_list_pull_requests',
    'github_get_pull_request',
    'github_get_pull_request_diff',
    'github_create_pull_request',
    'github_create_review',
    'github_merge_pull_request',
  ],
  'github.repos': ['github_list_repositories', 'github_get_file', 'github_get', 'github_graphql'],
};

const WRITES = [
  'github_create_issue',
  'github_update_issue',
  'github_add_comment',
  'github_create_pull_request',
  'github_create_review',
  'github_merge_pull_request',
  'github_rerun_workflow',
  'github_cancel_workflow_run',
  'github_dispatch_workflow',
];
/** The writes that cannot be undone. */
const DESTRUCTIVE = ['github_merge_pull_request', 'github_cancel_workflow_run'];
/** The tools whose result is text (a log, a diff, a file) or any body (the passthrough): no envelope. */
const TEXT_RESULTS = ['github_get_job_logs', 'github_get_pull_request_diff', 'github_get_file', 'github_get'];

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema & { default?: unknown }>;
  required?: string[];
  items?: JsonSchema;
}

/** `path.name` of every property that is required and has a default, at any depth. */
function requiredAndDefaulted(schema: JsonSchema, path: string): string[] {
  const own = (schema.required ?? []).filter((name) => schema.properties?.[name]?.default !== undefined).map((name) => `${path}.${name}`);
  const nested = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => [
    ...requiredAndDefaulted(child, `${path}.${name}`),
    ...(child.items ? requiredAndDefaulted(child.items, `${path}.${name}[]`) : []),
  ]);
  return [...own, ...nested];
}

describe('GitHub tool definitions as tools/list serves them', () => {
  const t = useVendorKernel({
    plugins: ['github'],
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_definitionsTestToken0123456789', MCP_STRUCTURED_OUTPUT: 'true' }),
  });
  let tools: Tool[];
  before(async () => {
    const client = await t.kernel.connect();
    tools = (await client.listTools()).tools.filter((tool) => tool.name.startsWith('github_'));
  });

  it('serves the twenty-three GitHub tools, each in its toolset', () => {
    expect(tools.map((tool) => tool.name).sort()).to.deep.equal(Object.values(TOOLSETS).flat().sort());
    const declared = Object.fromEntries(readToolSpecs(GithubPlugin).map(({ spec }) => [spec.name, spec.toolset]));
    for (const [toolset, names] of Object.entries(TOOLSETS)) for (const name of names) expect(declared[name], name).to.equal(toolset);
  });

  it('makes a model send no argument that has a default: none is both required and defaulted', () => {
    expect(tools.flatMap((tool) => requiredAndDefaulted(tool.inputSchema as JsonSchema, tool.name))).to.deep.equal([]);
    // The defaults are still advertised, and applied when the argument is left out (the request tests show it).
    const runs = tools.find((tool) => tool.name === 'github_list_workflow_runs')!.inputSchema as JsonSchema;
    expect(runs.required).to.deep.equal(['owner', 'repo']);
    expect(runs.properties?.perPage?.default).to.equal(30);
    expect((tools.find((tool) => tool.name === 'github_rerun_workflow')!.inputSchema as JsonSchema).properties?.failedOnly?.default).to.equal(true);
  });

  it('marks the writes as writes, destructive only where they cannot be undone, and the rest read-only', () => {
    for (const tool of tools) {
      const write = WRITES.includes(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).to.equal(!write);
      // MCP reads a write without destructiveHint as destructive: every write says which it is.
      if (write) expect(tool.annotations?.destructiveHint, tool.name).to.equal(DESTRUCTIVE.includes(tool.name));
    }
  });

  it('gives every tool whose result is an object or a page an outputSchema', () => {
    const withSchema = tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name);
    expect(withSchema.sort()).to.deep.equal(
      tools
        .map((tool) => tool.name)
        .filter((name) => !TEXT_RESULTS.includes(name))
        .sort(),
    );
    const paged = tools.find((tool) => tool.name === 'github_search_issues')!.outputSchema!;
    expect(paged.required).to.deep.equal(['data', 'nextPage']);
  });
});
