import { inject } from 'tsyringe';
import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import type { ToolCatalogue } from '../../core/plugin/tool-catalogue.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { CodeModeSettingsSchema, readCodeModeSettings, type CodeModeSettings } from './code-mode-settings.js';
import { DeclarationCache, GLOBALS_NOTE, toolsObject } from './declarations.js';
import type * as ExecuteModule from './execute-program.js';
import type { SandboxPool } from './sandbox/sandbox-pool.js';
import { searchTools, toolIndex } from './tool-search.js';

const SearchArgs = Type.Object(
  {
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Words to look for in tool names and descriptions.' })),
    toolsets: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20, description: 'Whole toolsets, e.g. ["jira"].' })),
    tools: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, description: 'Tools by name.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'Most tools a query returns.' })),
  },
  { additionalProperties: false },
);

const ExecuteArgs = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 100_000, description: 'TypeScript: the body of an async function.' }) },
  { additionalProperties: false },
);

/**
 * Code mode (docs/harness.md): `search_tools` shows the TypeScript declarations of the tools a caller reaches,
 * `execute` runs a program against them in a WebAssembly sandbox (QuickJS), each of its tool calls going through
 * the kernel like an MCP call. `--code-mode` serves these two and artifact_read only; the `code` toolset may also
 * be served beside the others. Each program gets a sandbox of its own.
 */
@Plugin({
  name: 'code',
  version: '1.0.0',
  settings: CodeModeSettingsSchema,
  toolsets: { code: { description: 'Code mode: search the tools as TypeScript, run a program that calls them (served with --code-mode).', default: false } },
})
export class CodeModePlugin implements DevtoolsPlugin {
  private readonly config: CodeModeSettings;
  private readonly declarations = new DeclarationCache();
  /** The program runner and its sandbox threads, loaded by the first execute: a server that runs none loads neither. */
  private runner: Promise<{ execute: typeof ExecuteModule; sandboxes: SandboxPool }> | undefined;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.ToolCatalogue) private readonly catalogue: ToolCatalogue,
    @inject(TOKENS.ArtifactStore) private readonly artifacts: ArtifactStore,
  ) {
    this.config = readCodeModeSettings(settings);
  }

  async close(): Promise<void> {
    await (await this.runner)?.sandboxes.close();
  }

  @Tool({
    name: 'search_tools',
    title: 'Search tools',
    description:
      'Find the tools a program can call, as TypeScript declarations (tools.<name>(args): Promise<Output>). ' +
      'With nothing asked: every toolset and its tool names.',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    input: SearchArgs,
    toolset: 'code',
  })
  async search(ctx: ToolContext<typeof SearchArgs, undefined>): Promise<ToolOutput> {
    const reachable = await this.catalogue.reachable(ctx.principal);
    const { query, toolsets, tools, limit = 5 } = ctx.args;
    if (query === undefined && (toolsets ?? []).length === 0 && (tools ?? []).length === 0) {
      return { text: `${reachable.length} tools. Ask for a query or toolsets to see their declarations.\n${toolIndex(reachable)}` };
    }
    const found = searchTools(reachable, {
      ...(query === undefined ? {} : { query }),
      ...(toolsets === undefined ? {} : { toolsets }),
      ...(tools === undefined ? {} : { tools }),
      limit,
    });
    if (found.length === 0) return { text: `No tool matches. The toolsets and their tools:\n${toolIndex(reachable)}` };
    const declared = found.map((t) => this.declarations.of(t.descriptor));
    return { text: [GLOBALS_NOTE, ...declared.map((d) => d.namespace), toolsObject(declared)].join('\n') };
  }

  @Tool({
    name: 'execute',
    title: 'Run a program',
    description:
      'Run TypeScript in a sandbox: the body of an async function that calls tools.<name>(args) (see search_tools) and gets their ' +
      'structured results. Returns what it prints (console.log) and returns. Print only what you need.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    input: ExecuteArgs,
    toolset: 'code',
  })
  async execute(ctx: ToolContext<typeof ExecuteArgs, undefined>): Promise<ToolOutput> {
    this.runner ??= Promise.all([import('./execute-program.js'), import('./sandbox/sandbox-pool.js')]).then(([execute, pool]) => ({
      execute,
      sandboxes: new pool.SandboxPool(this.config.concurrency),
    }));
    const { execute, sandboxes } = await this.runner;
    return execute.executeProgram(
      { catalogue: this.catalogue, artifacts: this.artifacts, declarations: this.declarations, settings: this.config, sandboxes },
      {
        code: ctx.args.code,
        principal: ctx.principal,
        signal: ctx.signal,
        progress: ctx.progress,
        ...(ctx.requestId === undefined ? {} : { requestId: ctx.requestId }),
      },
    );
  }
}
