import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';

/** The extension (SEP-2663) a 2026-07-28 client declares in its request's capabilities to be answered with tasks. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** A JSON-RPC error, as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
}

/** A task as the shared store keeps it (times in epoch milliseconds). */
export interface TaskRecord {
  taskId: string;
  /** The principal's subject that created it: nobody else reads or cancels it. */
  owner: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  /** When the process running the work last said it still runs it (working tasks). */
  heartbeatAt: number;
  /** A tasks/cancel that reached another process than the one running the work: it stops at its next heartbeat. */
  cancelRequested?: boolean;
  /** The tool's final CallToolResult (completed). */
  result?: Record<string, unknown>;
  error?: TaskError;
}

/** Whether a request's 2026-07-28 envelope declares the tasks extension among its client capabilities. */
export function declaresTasks(envelope: Record<string, unknown> | undefined): boolean {
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return declared !== null && typeof declared === 'object';
}

/** The task on the wire (a CreateTaskResult's members, or tasks/get's DetailedTask): ISO times, the status's own payload. */
export function wireTask(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
    ...(record.status === 'completed' && record.result !== undefined && { result: record.result }),
    ...(record.status === 'failed' && record.error !== undefined && { error: record.error }),
  };
}
