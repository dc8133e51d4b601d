import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { ToolError } from '../../core/errors/tool-error.js';
import type { Principal } from '../../core/identity/principal.js';
import type { ToolCatalogue } from '../../core/plugin/tool-catalogue.js';
import type { ProgressReporter, ToolOutput } from '../../core/plugin/tool-context.js';
import type { CodeModeSettings } from './code-mode-settings.js';
import type { DeclarationCache } from './declarations.js';
import { InnerCalls } from './inner-calls.js';
import { compileProgram } from './program-compiler.js';
import { ProgramOutput } from './program-output.js';
import type { SandboxPool } from './sandbox/sandbox-pool.js';

/** The `_meta` key listing a program's inner calls and their decisions. */
export const CALLS_META_KEY = 'mcp-devtools/calls';

/** What running one program needs from the plugin. */
export interface ExecuteDeps {
  readonly catalogue: ToolCatalogue;
  readonly artifacts: ArtifactStore | undefined;
  readonly declarations: DeclarationCache;
  readonly settings: CodeModeSettings;
  readonly sandboxes: SandboxPool;
}

/** The execute call a program runs in. */
export interface ExecuteCall {
  readonly code: string;
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly requestId?: string;
  readonly progress?: ProgressReporter;
}

/**
 * Compiles a program against the declarations of the tools its caller reaches, runs it in a sandbox of its own,
 * and turns how it ended into the execute result: what it printed and returned, or the error (with what it
 * printed before), `_meta` listing every inner call either way.
 */
export async function executeProgram(deps: ExecuteDeps, call: ExecuteCall): Promise<ToolOutput> {
  const { limits, typeCheck } = deps.settings;
  const reachable = (await deps.catalogue.reachable(call.principal)).map((t) => t.descriptor);
  // Not awaited here: the sandbox is made ready while the program compiles, and runs it only once it has.
  const script = compileProgram(call.code, { declarations: deps.declarations.fileFor(reachable), typeCheck });
  const ended = new AbortController();
  const inner = new InnerCalls(
    deps.catalogue,
    deps.artifacts,
    new Set(reachable.filter((t) => (t.annotations as { readOnlyHint?: boolean } | undefined)?.readOnlyHint !== true).map((t) => t.name)),
    {
      principal: call.principal,
      signal: AbortSignal.any([ended.signal, call.signal]),
      maxCalls: limits.maxCalls,
      maxValueBytes: limits.memoryBytes,
      ...(call.requestId === undefined ? {} : { requestId: call.requestId }),
      ...(call.progress === undefined ? {} : { progress: call.progress }),
    },
  );
  const output = new ProgramOutput(limits.outputBytes, limits.memoryBytes);
  const host = {
    toolNames: reachable.map((t) => t.name),
    call: (name: string, args: string) => inner.call(name, args),
    print: (line: string) => output.print(line),
  };
  const { end } = await deps.sandboxes.run(script, host, limits, call.signal).finally(() => ended.abort());
  const calls = { [CALLS_META_KEY]: inner.records };
  if (end.kind === 'returned') {
    const { text } = await output.bounded(output.text(end.json), call.principal, deps.artifacts);
    return { text: text === '' ? 'The program printed nothing and returned nothing.' : text, resultMeta: calls };
  }
  const printed = output.text();
  const before = printed === '' ? '' : `\nWhat it printed before:\n${(await output.bounded(printed, call.principal, deps.artifacts)).text}`;
  if (end.kind === 'threw') {
    throw new ToolError('program_failed', `The program threw an error it did not catch: ${end.message}${before}`, { meta: calls });
  }
  throw new ToolError(end.stop.code, `${end.stop.message}${before}`, { meta: { ...end.stop.meta, ...calls } });
}
