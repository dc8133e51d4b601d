import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Principal } from '../../core/identity/principal.js';
import type { ToolCatalogue } from '../../core/plugin/tool-catalogue.js';
import type { ProgressReporter } from '../../core/plugin/tool-context.js';
import { readWholeArtifact } from './whole-artifact.js';
import { limitStop, ProgramStop } from './sandbox/program-stop.js';

/** What `_meta["mcp-devtools/calls"]` of an execute result says of each inner call, in the order they were made. */
export interface InnerCallRecord {
  readonly tool: string;
  readonly ok: boolean;
  /** The error code of an error result. */
  readonly code?: string;
  /** The policy's decision: `allow` for a call it let through (or with no policy), else the refusal's decision. */
  readonly decision: Record<string, unknown>;
  /** Whether the tool can change something (not annotated read-only). */
  readonly writes: boolean;
}

/** Who a program acts for, and what its `execute` call carries over to its inner calls. */
export interface InnerCallContext {
  readonly principal: Principal;
  readonly requestId?: string;
  readonly progress?: ProgressReporter;
  /** Aborted when the program ends: calls still in flight are cancelled. */
  readonly signal: AbortSignal;
  readonly maxCalls: number;
  /** Largest value read back from an artifact into the program (its memory limit: it could hold no more). */
  readonly maxValueBytes: number;
}

/**
 * The host's end of `tools.<name>(args)`: each call goes through the ToolCatalogue, the kernel's own path (the
 * principal, policy, approvals, audit under the execute call's request id, egress guard, cache), and comes back
 * as the reply the prelude turns into a value or a typed error. A call held for approval ends the program.
 */
export class InnerCalls {
  readonly records: InnerCallRecord[] = [];
  private made = 0;

  constructor(
    private readonly catalogue: ToolCatalogue,
    private readonly artifacts: ArtifactStore | undefined,
    private readonly writers: ReadonlySet<string>,
    private readonly context: InnerCallContext,
  ) {}

  async call(tool: string, argsJson: string): Promise<string> {
    this.made += 1;
    if (this.made > this.context.maxCalls) throw limitStop.calls(this.context.maxCalls);
    const args: unknown = JSON.parse(argsJson);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return reply({ ok: false, code: 'invalid_arguments', message: `The arguments of ${tool} must be an object, as its Input type says.` });
    }
    const { principal, requestId, progress, signal } = this.context;
    const result = await this.catalogue.call(tool, args as Record<string, unknown>, principal, {
      signal,
      ...(requestId === undefined ? {} : { requestId }),
      ...(progress === undefined ? {} : { progress }),
    });
    return this.answer(tool, result);
  }

  private async answer(tool: string, result: CallToolResult): Promise<string> {
    const meta = result._meta as Record<string, unknown> | undefined;
    const writes = this.writers.has(tool);
    if (result.isError === true) {
      const code = typeof meta?.code === 'string' ? meta.code : (/^Code: (\w+)$/m.exec(textOf(result))?.[1] ?? 'tool_failed');
      const decision = isRecord(meta?.decision) ? meta.decision : { effect: 'allow' };
      this.records.push({ tool, ok: false, code, decision, writes });
      if (code === 'approval_required') throw this.held(tool, decision);
      return reply({ ok: false, code, message: textOf(result).replace(/^Error: /, ''), meta });
    }
    this.records.push({ tool, ok: true, decision: { effect: 'allow' }, writes });
    return reply({ ok: true, value: await this.valueOf(result) });
  }

  /** The structured value (read back whole from its artifact when it was too large to send), else the text. */
  private async valueOf(result: CallToolResult): Promise<unknown> {
    const structured = result.structuredContent;
    if (structured === undefined) return textOf(result);
    const incomplete = (structured as { incomplete?: { artifactId?: string | null } }).incomplete;
    if (incomplete?.artifactId == null || this.artifacts === undefined) return structured;
    return JSON.parse(await readWholeArtifact(this.artifacts, this.context.principal, incomplete.artifactId, this.context.maxValueBytes));
  }

  /** The stop of a held call: the approval to ask for, and the writes the program made before it. */
  private held(tool: string, decision: Record<string, unknown>): ProgramStop {
    const before = this.records.slice(0, -1);
    const writes = before.filter((r) => r.writes && r.ok).map((r) => r.tool);
    const done =
      writes.length === 0 ? 'It made no write before it.' : `Before it, it made these writes, which a run after the grant makes again: ${writes.join(', ')}.`;
    const message =
      `The program was stopped at ${tool}, which needs an approver's grant: approval ${String(decision.approvalId)}, pending until ${String(decision.expiresAt)}. ` +
      `${done} Ask an approver to grant it (mcp-devtools approvals grant ${String(decision.approvalId)}), then run the program again: the granted call then runs once.`;
    return new ProgramStop('approval_required', message, { code: 'approval_required', decision, writesBefore: writes });
  }
}

function reply(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}

function textOf(result: CallToolResult): string {
  return result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
