import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { ToolCatalogue } from '../../core/plugin/tool-catalogue.js';
import type { CodeModeSettings } from './code-mode-settings.js';
import { answerHead, toolsObject, type DeclarationCache } from './declarations.js';
import type * as ExecuteModule from './execute-program.js';
import type { SandboxPool } from './sandbox/sandbox-pool.js';
import { searchTools, toolIndex } from './tool-search.js';

const SearchArgs = Type.Object(
  {
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Words, or tool names.' })),
    toolsets: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20, description: 'Whole toolsets, e.g. ["jira"].' })),
  },
  { additionalProperties: false },
);

/** The most tools a query's words return: the best matches (by name, then title, then description). */
const QUERY_LIMIT = 5;

const ExecuteArgs = Type.Object({ code: Type.String({ minLength: 1, maxLength: 100_000, description: 'TypeScript.' }) }, { additionalProperties: false });

/** What the code tools use of the CodeModePlugin instance (index.ts). */
export interface CodeModeDeps {
  /** The tools a caller reaches, as the kernel serves them. */
  readonly catalogue: ToolCatalogue;
  readonly artifacts: ArtifactStore;
  readonly declarations: DeclarationCache;
  readonly config: CodeModeSettings;
  /** The program runner and its sandbox threads, loaded by the first execute: a server that runs none loads neither. */
  runner(): Promise<{ execute: typeof ExecuteModule; sandboxes: SandboxPool }>;
}

export const SEARCH_TOOLS = defineTool({
  name: 'search_tools',
  title: 'Search tools',
  description: 'TypeScript declarations of the tools a program can call. Nothing asked: the toolsets and their tools.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: SearchArgs,
  toolset: 'code',
  handler: async (ctx, code: CodeModeDeps) => {
    const reachable = await code.catalogue.reachable(ctx.principal);
    const { query, toolsets } = ctx.args;
    if (query === undefined && (toolsets ?? []).length === 0) {
      return { text: `${reachable.length} tools. Ask for a query or toolsets to see their declarations.\n${toolIndex(reachable)}` };
    }
    const found = searchTools(reachable, {
      ...(query === undefined ? {} : { query }),
      ...(toolsets === undefined ? {} : { toolsets }),
      limit: QUERY_LIMIT,
    });
    if (found.length === 0) return { text: `No tool matches. The toolsets and their tools:\n${toolIndex(reachable)}` };
    const declared = found.map((t) => code.declarations.of(t.descriptor));
    return { text: [answerHead(declared), ...declared.map((d) => d.namespace), toolsObject(declared)].join('') };
  },
});

export const EXECUTE = defineTool({
  name: 'execute',
  title: 'Run a program',
  description:
    'Run TypeScript in a sandbox: an async function body; await tools.<name>(args) (see search_tools) for structured results. ' +
    'console.log prints; no timers, fetch or process. Returns what it prints and returns: print only what you need.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: ExecuteArgs,
  toolset: 'code',
  handler: async (ctx, code: CodeModeDeps) => {
    const { execute, sandboxes } = await code.runner();
    return execute.executeProgram(
      { catalogue: code.catalogue, artifacts: code.artifacts, declarations: code.declarations, settings: code.config, sandboxes },
      {
        code: ctx.args.code,
        principal: ctx.principal,
        signal: ctx.signal,
        progress: ctx.progress,
        ...(ctx.requestId === undefined ? {} : { requestId: ctx.requestId }),
      },
    );
  },
});
