import { PROTOCOL_VERSION_META_KEY, ProtocolError, ProtocolErrorCode, type Server, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { principalOf } from '../call-origin.js';
import { declaresTasks, TASKS_EXTENSION, wireTask } from './task-record.js';
import type { TaskRunner } from './task-runner.js';

/** The params of tasks/get, tasks/cancel and tasks/update: a task id (a Standard Schema, as the SDK takes one for these methods). */
const TaskIdParams: StandardSchemaV1<unknown, { taskId: string }> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-devtools',
    validate: (value) => {
      const taskId = (value as { taskId?: unknown } | null)?.taskId;
      return typeof taskId === 'string' && taskId.length > 0 && taskId.length <= 200
        ? { value: value as { taskId: string } }
        : { issues: [{ message: 'taskId must be the id a CreateTaskResult gave (a string)', path: ['taskId'] }] };
    },
  },
};

/** One answer for an unknown, expired or another caller's task: which of them it is would tell a guesser something. */
const notFound = (): ProtocolError =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found (it does not exist, expired, or is not yours).');

/**
 * The methods of the tasks extension (SEP-2663) on a 2026-07-28 server: `tasks/get` (the task, with its result
 * once completed), `tasks/cancel`, and `tasks/update` (no task of this server asks for input: acknowledged).
 * Each checks that the request declares the extension and that the task is the caller's own.
 */
export function serveTaskMethods(server: Server, runner: TaskRunner): void {
  const caller = (ctx: { mcpReq: { envelope?: Record<string, unknown> }; http?: { authInfo?: { extra?: Record<string, unknown> } } }): string => {
    // The 2025-era tasks (2025-11-25's own tasks/get) are not served: to those clients the methods do not exist, as before.
    if (ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY] === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    if (!declaresTasks(ctx.mcpReq.envelope))
      throw new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, 'Missing required client capability', {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    return principalOf(ctx).subject;
  };
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async ({ taskId }, ctx) => {
    const record = await runner.board.read(taskId, caller(ctx));
    if (record === undefined) throw notFound();
    return wireTask(record) as never;
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async ({ taskId }, ctx) => {
    if (!(await runner.cancel(taskId, caller(ctx)))) throw notFound();
    return {};
  });
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, async ({ taskId }, ctx) => {
    if ((await runner.board.read(taskId, caller(ctx))) === undefined) throw notFound();
    return {};
  });
}
