import { expect } from 'chai';
import Type from 'typebox';
import { Settings, type ResolvedSetting } from '../../../core/config/settings.js';
import { ToolSelection, type SelectableTool } from '../../../core/kernel/tool-selection.js';
import { collectToolsets } from '../../../core/kernel/toolsets.js';
import type { PluginSpec, ToolDefinition } from '../../../core/plugin/contract.js';

const SELECTION_DEFAULTS = { MCP_TOOLSETS: '', MCP_TOOLS: '', MCP_EXCLUDE_TOOLS: '', MCP_DYNAMIC_TOOLSETS: false, MCP_READ_ONLY: false, MCP_CODE_MODE: false };

function settings(values: Partial<typeof SELECTION_DEFAULTS> = {}): Settings {
  const all = { ...SELECTION_DEFAULTS, ...values };
  return new Settings(
    new Map(Object.entries(all).map(([key, value]): [string, ResolvedSetting] => [key, { key, value, source: 'test', owner: 'core', secret: false }])),
  );
}

/** A tool as the kernel holds it, by name, plugin, toolset and whether it reads. */
function tool(name: string, plugin: string, toolset: string | undefined, readOnly = true, canSpill = false): SelectableTool {
  const definition = {
    spec: { name, title: name, description: name, annotations: { readOnlyHint: readOnly }, input: Type.Object({}), ...(toolset ? { toolset } : {}) },
    plugin,
    handler: async () => ({}),
  } as unknown as ToolDefinition;
  return { definition, writes: !readOnly, canSpill };
}

const PLUGINS: PluginSpec[] = [
  {
    name: 'github',
    version: '1',
    toolsets: { 'github.actions': { description: 'CI' }, 'github.issues': { description: 'Issues' }, 'github.repos': { description: 'Repos', default: false } },
  },
  { name: 'jira', version: '1' },
  { name: 'artifacts', version: '1', toolsets: { artifacts: { description: 'Read artifacts', default: false } } },
  { name: 'toolsets', version: '1', toolsets: { toolsets: { description: 'Toolsets', default: false } } },
];
const TOOLS = [
  tool('github_list_workflow_runs', 'github', 'github.actions'),
  tool('github_get_job_logs', 'github', 'github.actions', true, true),
  tool('github_rerun_workflow', 'github', 'github.actions', false),
  tool('github_create_issue', 'github', 'github.issues', false),
  tool('github_get', 'github', 'github.repos'),
  tool('jira_get', 'jira', undefined),
  tool('artifact_read', 'artifacts', 'artifacts'),
  tool('list_toolsets', 'toolsets', 'toolsets'),
  tool('get_toolset_tools', 'toolsets', 'toolsets'),
  tool('enable_toolset', 'toolsets', 'toolsets'),
];

function select(values: Partial<typeof SELECTION_DEFAULTS> = {}, plugins = PLUGINS, tools = TOOLS): ToolSelection {
  return new ToolSelection(
    settings(values),
    tools,
    collectToolsets(
      plugins,
      tools.map((t) => t.definition),
    ),
  );
}
const served = (selection: ToolSelection, enabled?: ReadonlySet<string>): string[] =>
  TOOLS.map((t) => t.definition.spec.name).filter((name) => selection.hiddenBy(name, enabled) === undefined);

describe('tool selection: toolsets, tools, exclusions, dynamic toolsets', () => {
  it('serves the default toolsets when nothing is selected (and the artifact reader while a served tool spills)', () => {
    expect(served(select())).to.deep.equal([
      'github_list_workflow_runs',
      'github_get_job_logs',
      'github_rerun_workflow',
      'github_create_issue',
      'jira_get',
      'artifact_read',
    ]);
    expect(select().hiddenBy('github_get')).to.equal(
      'its toolset "github.repos" is not one of the default toolsets (--toolsets github.repos or --toolsets all serves it)',
    );
  });

  it('selects one toolset by its name, and every toolset of a plugin by the plugin name', () => {
    expect(served(select({ MCP_TOOLSETS: 'github.issues' }))).to.deep.equal(['github_create_issue']);
    expect(served(select({ MCP_TOOLSETS: 'github' }))).to.deep.equal([
      'github_list_workflow_runs',
      'github_get_job_logs',
      'github_rerun_workflow',
      'github_create_issue',
      'github_get',
      'artifact_read',
    ]);
  });

  it('serves every tool with "all" (the toolset tools stay for --dynamic-toolsets), and "default" adds up with others', () => {
    expect(served(select({ MCP_TOOLSETS: 'all' }))).to.deep.equal(TOOLS.map((t) => t.definition.spec.name).filter((n) => !n.includes('toolset')));
    expect(served(select({ MCP_TOOLSETS: 'default,github.repos' })))
      .to.include('github_get')
      .and.include('jira_get');
  });

  it('adds tools by name and takes tools away with MCP_EXCLUDE_TOOLS, whatever selected them', () => {
    expect(served(select({ MCP_TOOLSETS: 'github.issues', MCP_TOOLS: 'jira_get' }))).to.deep.equal(['github_create_issue', 'jira_get']);
    const selection = select({ MCP_TOOLSETS: 'all', MCP_EXCLUDE_TOOLS: 'github_rerun_workflow,jira_get' });
    expect(served(selection)).to.not.include('github_rerun_workflow').and.not.include('jira_get');
    expect(selection.hiddenBy('jira_get')).to.equal('MCP_EXCLUDE_TOOLS (--exclude-tools) lists it');
  });

  it('serves only the tools MCP_TOOLS names when no toolset is named, and only the default toolsets for "default"', () => {
    expect(served(select({ MCP_TOOLS: 'jira_get' }))).to.deep.equal(['jira_get']);
    expect(served(select({ MCP_TOOLSETS: 'default' }))).to.deep.equal(served(select()));
    expect(served(select({ MCP_TOOLSETS: 'default' }))).not.to.include('github_get');
  });

  it('hides under MCP_READ_ONLY a tool annotated as a read whose request writes, and a write whose requests are not known at start-up', () => {
    const annotatedRead = { ...tool('github_graphql', 'github', 'github.repos'), writes: true };
    const unknownWrite = { ...tool('jira_bulk', 'jira', undefined, false), writes: undefined };
    const tools = [...TOOLS, annotatedRead, unknownWrite];
    const selection = new ToolSelection(
      settings({ MCP_TOOLSETS: 'all', MCP_READ_ONLY: true }),
      tools,
      collectToolsets(
        PLUGINS,
        tools.map((t) => t.definition),
      ),
    );
    expect(selection.hiddenBy('github_graphql')).to.equal('MCP_READ_ONLY=true hides it (it can change things)');
    expect(selection.hiddenBy('jira_bulk')).to.equal('MCP_READ_ONLY=true hides it (it can change things)');
    expect(selection.hiddenBy('github_get')).to.equal(undefined);
  });

  it('hides what can change something under MCP_READ_ONLY, within the selection', () => {
    expect(served(select({ MCP_TOOLSETS: 'github.actions', MCP_READ_ONLY: true }))).to.deep.equal([
      'github_list_workflow_runs',
      'github_get_job_logs',
      'artifact_read',
    ]);
  });

  it('starts a dynamic server with the three toolset tools and what is named, and serves a toolset once enabled', () => {
    const dynamic = select({ MCP_DYNAMIC_TOOLSETS: true });
    expect(served(dynamic)).to.deep.equal(['list_toolsets', 'get_toolset_tools', 'enable_toolset']);
    expect(dynamic.hiddenBy('jira_get')).to.include('enable_toolset "jira" serves it');
    expect(served(dynamic, new Set(['github.actions']))).to.deep.equal([
      'github_list_workflow_runs',
      'github_get_job_logs',
      'github_rerun_workflow',
      'artifact_read',
      'list_toolsets',
      'get_toolset_tools',
      'enable_toolset',
    ]);
    expect(served(select({ MCP_DYNAMIC_TOOLSETS: true, MCP_TOOLS: 'jira_get' }))).to.deep.equal([
      'jira_get',
      'list_toolsets',
      'get_toolset_tools',
      'enable_toolset',
    ]);
    // Without the setting the three are never served, even under "all".
    expect(select({ MCP_TOOLSETS: 'all' }).hiddenBy('enable_toolset')).to.equal('it is served with MCP_DYNAMIC_TOOLSETS=true (--dynamic-toolsets) only');
  });

  it('never serves, once its toolset is enabled, a tool MCP_EXCLUDE_TOOLS or MCP_READ_ONLY hides (--dynamic-toolsets)', () => {
    const dynamic = select({ MCP_DYNAMIC_TOOLSETS: true, MCP_EXCLUDE_TOOLS: 'github_get_job_logs', MCP_READ_ONLY: true });
    const enabled = new Set(['github.actions', 'github.issues']);
    expect(served(dynamic, enabled)).to.deep.equal(['github_list_workflow_runs', 'list_toolsets', 'get_toolset_tools', 'enable_toolset']);
    expect(dynamic.hiddenBy('github_get_job_logs', enabled)).to.equal('MCP_EXCLUDE_TOOLS (--exclude-tools) lists it');
    expect(dynamic.hiddenBy('github_rerun_workflow', enabled)).to.equal('MCP_READ_ONLY=true hides it (it can change things)');
    expect(dynamic.hiddenBy('github_create_issue', enabled)).to.equal('MCP_READ_ONLY=true hides it (it can change things)');
  });

  it('fails start-up on a toolset, tool or exclusion that does not exist, with the nearest names', () => {
    expect(() => select({ MCP_TOOLSETS: 'github.action' })).to.throw(
      'names "github.action", which is no toolset or plugin with tools. Did you mean "github.actions"',
    );
    expect(() => select({ MCP_TOOLS: 'jira_gte' })).to.throw('MCP_TOOLS (--tools) names "jira_gte"');
    expect(() => select({ MCP_EXCLUDE_TOOLS: 'jira_gte' })).to.throw('MCP_EXCLUDE_TOOLS (--exclude-tools) names "jira_gte"');
  });

  it("refuses a tool in another plugin's toolset, a malformed toolset name and a declared toolset with no tool, naming the plugin", () => {
    const stray = tool('jira_search', 'jira', 'github.issues');
    expect(() => collectToolsets(PLUGINS, [stray.definition])).to.throw(
      'Tool "jira_search" of plugin "jira": toolset "github.issues" must be "jira" or start with "jira."',
    );
    expect(() => collectToolsets(PLUGINS, [tool('x', 'jira', 'Jira Issues').definition])).to.throw('toolset "Jira Issues" is not a toolset name');
    expect(() =>
      collectToolsets([{ name: 'jira', version: '1', toolsets: { 'jira.isues': { description: 'x' } } }], [tool('jira_get', 'jira', 'jira.issues').definition]),
    ).to.throw('Plugin "jira" declares toolset "jira.isues", but none of its tools is in it');
  });
});

describe('tool selection: code mode', () => {
  const plugins: PluginSpec[] = [...PLUGINS, { name: 'code', version: '1', toolsets: { code: { description: 'Code mode', default: false } } }];
  const tools = [...TOOLS, tool('search_tools', 'code', 'code'), tool('execute', 'code', 'code', false)];
  const selectWithCode = (values: Partial<typeof SELECTION_DEFAULTS> = {}): ToolSelection => select(values, plugins, tools);
  const servedTo = (selection: ToolSelection, reach: 'client' | 'program'): string[] =>
    tools.map((t) => t.definition.spec.name).filter((name) => selection.hiddenBy(name, undefined, reach) === undefined);

  it('lists the code tools and artifact_read only; a program reaches what the selection would serve, never the code tools', () => {
    const selection = selectWithCode({ MCP_CODE_MODE: true });
    expect(servedTo(selection, 'client')).to.deep.equal(['artifact_read', 'search_tools', 'execute']);
    // Exactly what a server without code mode would serve.
    expect(servedTo(selection, 'program')).to.deep.equal(served(select()));
    expect(selection.hiddenBy('jira_get')).to.equal(
      'MCP_CODE_MODE=true (--code-mode) serves search_tools, execute and artifact_read only: call it from a program run by execute',
    );
    expect(selection.hiddenBy('execute', undefined, 'program')).to.equal('a program cannot call the code tools (search_tools, execute)');
  });

  it('keeps the code toolset out of the defaults, serves it beside others when named, and holds read-only mode and exclusions inside', () => {
    expect(servedTo(selectWithCode(), 'client')).not.to.include.members(['search_tools', 'execute']);
    expect(servedTo(selectWithCode({ MCP_TOOLSETS: 'default,code' }), 'client')).to.include.members(['search_tools', 'execute', 'jira_get']);
    const guarded = selectWithCode({ MCP_CODE_MODE: true, MCP_READ_ONLY: true, MCP_EXCLUDE_TOOLS: 'jira_get' });
    expect(servedTo(guarded, 'client'), 'execute stays: its programs are held to read-only call by call').to.deep.equal([
      'artifact_read',
      'search_tools',
      'execute',
    ]);
    expect(servedTo(guarded, 'program')).to.deep.equal(['github_list_workflow_runs', 'github_get_job_logs', 'artifact_read']);
  });
});

describe('tool selection: advice that names another tool (issue 53, item 6)', () => {
  it('names a served tool bare, and one outside the selection with the toolset that serves it', () => {
    expect(select().advise('github_list_workflow_runs')).to.equal('github_list_workflow_runs');
    expect(select().advise('github_get')).to.equal('github_get (not served here: the operator serves it by adding "github.repos" to --toolsets, MCP_TOOLSETS)');
    const dynamic = select({ MCP_DYNAMIC_TOOLSETS: true });
    expect(dynamic.advise('github_get')).to.equal('github_get (not served to you yet: call enable_toolset with toolset "github.repos" first)');
    expect(dynamic.advise('github_get', new Set(['github.repos']))).to.equal('github_get');
  });

  it('says why a tool no toolset can bring back is not served (excluded, read-only), and leaves unknown names alone', () => {
    expect(select({ MCP_TOOLSETS: 'all', MCP_EXCLUDE_TOOLS: 'github_get' }).advise('github_get')).to.equal(
      'github_get (not served here: MCP_EXCLUDE_TOOLS (--exclude-tools) lists it)',
    );
    expect(select({ MCP_READ_ONLY: true }).advise('github_rerun_workflow')).to.equal(
      'github_rerun_workflow (not served here: MCP_READ_ONLY=true hides it (it can change things))',
    );
    expect(select().advise('no_such_tool')).to.equal('no_such_tool');
  });
});

describe('tool selection: the default set serves the vendors with credentials (issue 53, item 6)', () => {
  const withoutJira = (values: Partial<typeof SELECTION_DEFAULTS> = {}): ToolSelection =>
    new ToolSelection(
      settings(values),
      TOOLS,
      collectToolsets(
        PLUGINS,
        TOOLS.map((t) => t.definition),
      ),
      new Map([['jira', 'no credentials configured']]),
    );

  it('leaves a vendor without credentials out of the default set, saying why and what serves it', () => {
    expect(served(withoutJira())).not.to.include('jira_get');
    expect(served(withoutJira())).to.include('github_list_workflow_runs');
    expect(withoutJira().hiddenBy('jira_get')).to.equal(
      'the jira plugin has no credentials configured, so the default tools leave it out (configure them, or --toolsets jira serves it)',
    );
    expect(withoutJira().defaultVendors()).to.deep.equal({ served: ['github'], notServed: { jira: 'no credentials configured' } });
  });

  it('serves it when the operator names it, or default, and then gives no account of vendors', () => {
    for (const named of ['jira', 'default', 'all']) {
      expect(served(withoutJira({ MCP_TOOLSETS: named })), named).to.include('jira_get');
      expect(withoutJira({ MCP_TOOLSETS: named }).defaultVendors(), named).to.equal(undefined);
    }
    expect(select().defaultVendors()).to.equal(undefined);
  });
});
