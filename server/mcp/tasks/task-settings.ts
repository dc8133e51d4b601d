import Type from 'typebox';

/** How long a task's state is kept, and how many tasks one caller may have running. Registered in server-settings.ts. */
export const TaskSettings = Type.Object({
  MCP_TASK_TTL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description:
      'How long a task (a ci_wait answered as an MCP task to a client that declares the tasks extension) is kept from its creation; its wait is stopped if it is still running then, and tasks/get says "not found" after.',
  }),
  MCP_TASK_POLL_INTERVAL_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: 5000,
    description: 'How often a task-capable client is asked to poll a running task (tasks/get), in milliseconds.',
  }),
  MCP_TASK_MAX_PER_PRINCIPAL: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 10,
    description: 'How many tasks one caller may have running on one server process; one more is refused (too_many_tasks) until one ends.',
  }),
});
