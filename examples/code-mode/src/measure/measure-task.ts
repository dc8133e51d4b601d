import { CodeModeHarness } from '../harness/code-mode-harness.js';
import { connectToServer } from '../harness/server-connection.js';
import { DirectAgent } from '../tasks/direct-agent.js';
import { printedAnswer, type Task } from '../tasks/task.js';
import type { VendorWorld } from '../tasks/vendor-world.js';
import type { FixedCost } from './measurement-table.js';
import { reading, type Reading } from './token-count.js';

/** One way of doing a task: what the model read, how many turns it took, how many tool calls the server saw. */
export interface WayMeasure extends Reading {
  turns: number;
  toolCalls: number;
  answer: unknown;
}

export interface TaskMeasure {
  task: Task;
  direct: WayMeasure;
  program: WayMeasure;
}

/** The direct way against a fresh server: every text the agent read counts. */
export async function measureDirect(task: Task, world: VendorWorld): Promise<WayMeasure> {
  const connection = await connectToServer(world.server());
  try {
    const agent = new DirectAgent(connection.client);
    const answer = await task.direct(agent);
    return { ...reading(agent.texts), turns: agent.turns, toolCalls: agent.toolCalls, answer };
  } finally {
    await connection.close();
  }
}

/**
 * The program way against a fresh server: the model reads the program it wrote and what the program printed,
 * in one turn. (The declarations it wrote the program against are a fixed cost, measured apart.)
 */
export async function measureProgram(task: Task, world: VendorWorld): Promise<WayMeasure> {
  const harness = await CodeModeHarness.start(world.server());
  try {
    const source = task.program();
    const run = await harness.run(source);
    return { ...reading([source, run.printed]), turns: 1, toolCalls: run.toolCalls, answer: printedAnswer(run.printed) };
  } finally {
    await harness.close();
  }
}

export async function measureTask(task: Task, world: VendorWorld): Promise<TaskMeasure> {
  return { task, direct: await measureDirect(task, world), program: await measureProgram(task, world) };
}

/** What the model reads about the tools before any task, each way: the tool definitions as JSON, or the declarations. */
export async function measureFixedCost(world: VendorWorld): Promise<FixedCost> {
  const harness = await CodeModeHarness.start(world.server());
  try {
    // What a client passes to the model's API for each tool: its name, description and input schema.
    const definitions = harness.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    return { toolsList: reading([JSON.stringify(definitions)]), declarations: reading([harness.declarations]) };
  } finally {
    await harness.close();
  }
}
