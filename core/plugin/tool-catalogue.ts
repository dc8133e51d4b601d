import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Principal } from '../identity/principal.js';
import type { ToolDescriptor } from './contract.js';
import type { ProgressReporter } from './tool-context.js';

/**
 * The MCP revision a program's calls are made under: the newest, so every tool with a structured contract gives
 * its structured value, whatever its schema's root (a program is no older client that would reject one).
 */
export const PROGRAM_PROTOCOL_VERSION = '2026-07-28';

/** What a program's tool call carries over from the `execute` call that runs the program. */
export interface ProgramCallOptions {
  /** The `execute` call's request id: the inner call's log line and audit record carry it. */
  readonly requestId?: string;
  /** Aborted when the program ends (a limit, a hold, the client's cancellation): the call is cancelled. */
  readonly signal?: AbortSignal;
  readonly progress?: ProgressReporter;
}

/** A tool a program may call: its `tools/list` entry, and the toolset it belongs to (`github.actions`). */
export interface ReachableTool {
  readonly descriptor: ToolDescriptor;
  readonly toolset: string;
}

/**
 * The tools a program run by code mode's `execute` reaches, and the one way it calls them: through the kernel,
 * exactly as an MCP `tools/call` (the caller's principal, validation, policy, approvals, audit, egress guard,
 * cache), under PROGRAM_PROTOCOL_VERSION, with the tool selection, exclusions and read-only mode of the server.
 * The kernel provides it as `TOKENS.ToolCatalogue`.
 */
export interface ToolCatalogue {
  /** The tools a program of `principal` may call, as `tools/list` serves them (outputSchema included), with their toolset. */
  reachable(principal: Principal): Promise<ReachableTool[]>;
  /** One tool call; resolves with its MCP result, an error result included. Rejects for a tool it does not reach. */
  call(name: string, args: Record<string, unknown>, principal: Principal, options?: ProgramCallOptions): Promise<CallToolResult>;
}
