import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { ToolError } from '../../../core/errors/tool-error.js';
import { UnknownToolError, type Kernel } from '../../../core/kernel/kernel.js';
import type { ProgressReporter } from '../../../core/plugin/tool-context.js';
import type { Principal } from '../../../core/identity/principal.js';
import { errorResult } from '../../../core/result/tool-result.js';
import { wireTask } from './task-record.js';
import type { TaskRunner } from './task-runner.js';

const detachableByKernel = new WeakMap<Kernel, ReadonlySet<string>>();

/**
 * The tools that may run as a task (ToolSpec.detachable set), decided once per kernel: a call of any other tool
 * (nearly all of them) never looks at the tasks extension.
 */
export function detachableTools(kernel: Kernel): ReadonlySet<string> {
  let names = detachableByKernel.get(kernel);
  if (names === undefined) {
    names = new Set(
      kernel
        .definitions()
        .filter((d) => d.spec.detachable !== undefined && d.spec.detachable !== false)
        .map((d) => d.spec.name),
    );
    detachableByKernel.set(kernel, names);
  }
  return names;
}

/**
 * Whether a call of `name` is answered with a task: its tool says it waits (ToolSpec.detachable) and the caller
 * is served it (a hidden or unknown tool is answered at once, with the synchronous path's error).
 */
export async function isDetachable(kernel: Kernel, name: string, args: Record<string, unknown> | undefined, principal: Principal): Promise<boolean> {
  const detachable = kernel.definitions().find((d) => d.spec.name === name)?.spec.detachable;
  if (detachable === undefined || detachable === false) return false;
  if (typeof detachable === 'function' && !detachable(args ?? {})) return false;
  return kernel.hiddenBy(name, kernel.dynamicToolsets ? await kernel.enabledToolsets(principal) : undefined) === undefined;
}

/**
 * The task's statusMessage from the call's progress: each new message once (a download reports every chunk
 * under one message; each report would otherwise be a store write). Reports without a message are not shown.
 */
function statusMessages(say: (message: string) => void): ProgressReporter {
  let last: string | undefined;
  return (_done, _total, message) => {
    if (message === undefined || message === last) return;
    last = message;
    say(message);
  };
}

/** The tools/call to run detached: the same kernel call as a synchronous one, given the task's signal and progress. */
export type DetachedCall = (signal: AbortSignal, progress: ProgressReporter) => Promise<CallToolResult>;

/**
 * Answers a tools/call with a CreateTaskResult and runs the call as that task: the kernel's whole path (policy,
 * audit, the tool) as for a synchronous call, only the waiting is no longer the request's. The task ends
 * completed with the result the synchronous call would have answered (`project`: the era's projection), or
 * failed with the JSON-RPC error it would have answered. Progress becomes the task's statusMessage.
 */
export async function startDetached(
  runner: TaskRunner,
  principal: Principal,
  call: DetachedCall,
  project: (result: CallToolResult) => Promise<CallToolResult>,
): Promise<Record<string, unknown>> {
  const started = await runner.start(principal.subject, async (signal, progress) => {
    try {
      const result = await call(signal, statusMessages(progress));
      return { result: { ...(await project(result)), resultType: 'complete' } };
    } catch (error) {
      if (error instanceof UnknownToolError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  });
  if (started === 'busy') {
    const message = `You already have the most tasks this server runs for one caller (MCP_TASK_MAX_PER_PRINCIPAL). Wait for one to finish, or cancel one (tasks/cancel), then call again.`;
    return errorResult(new ToolError('too_many_tasks', message), {}) as Record<string, unknown>;
  }
  return { resultType: 'task', ...wireTask(started) };
}
