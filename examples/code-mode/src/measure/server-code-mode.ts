import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { connectToServer } from '../harness/server-connection.js';
import { resultText } from '../harness/tool-errors.js';
import { DirectAgent } from '../tasks/direct-agent.js';
import { printedAnswer, type Task } from '../tasks/task.js';
import type { VendorWorld } from '../tasks/vendor-world.js';
import { reading, type Reading } from './token-count.js';

/** The toolsets the six tasks use: all a direct agent needs listed (the smallest tools/list that does them). */
export const DIRECT_TOOLSETS = 'github.actions,jira.rest,circleci.rest';

/** What the model wrote and read doing one task one way, and what it took. */
export interface WayTokens {
  turns: number;
  /** Tool calls the server made: the model's own (direct), or the program's (code mode). */
  toolCalls: number;
  written: Reading;
  read: Reading;
  /** Code mode only: the reads and writes apart (search_tools asked and answered, the program, what it printed). */
  parts?: { searchCall: Reading; searchAnswer: Reading; program: Reading; printed: Reading };
  answer: unknown;
}

export interface ServerTaskMeasure {
  id: string;
  direct: WayTokens;
  codeMode: WayTokens;
}

export interface ServerMeasurement {
  /**
   * The tool definitions a conversation starts with (tools/list as sent, JSON): the direct server's (the toolsets
   * the tasks use), the whole catalogue's (every tool: what reaching all of them directly costs), --code-mode's.
   */
  definitions: { direct: Reading & { tools: number }; catalogue: Reading & { tools: number }; codeMode: Reading & { tools: number } };
  tasks: ServerTaskMeasure[];
}

async function definitionsOf(client: Client): Promise<Reading & { tools: number }> {
  const { tools } = await client.listTools();
  return { ...reading([JSON.stringify({ tools })]), tools: tools.length };
}

/** The direct way: every call written, every text read (the agent of docs/harness.md). */
async function direct(task: Task, client: Client): Promise<WayTokens> {
  const agent = new DirectAgent(client);
  const answer = await task.direct(agent);
  return { turns: agent.turns, toolCalls: agent.toolCalls, written: reading(agent.written), read: reading(agent.texts), answer };
}

/**
 * Server-side code mode: the model asks search_tools for the declarations of what it needs (one turn), then
 * writes the program and reads what it printed (another). The program is the task's, as written for the harness.
 */
async function codeMode(task: Task, client: Client): Promise<WayTokens> {
  const calls = [
    { name: 'search_tools', arguments: task.search },
    { name: 'execute', arguments: { code: task.program() } },
  ];
  const texts: string[] = [];
  let last: CallToolResult | undefined;
  for (const call of calls) {
    last = (await client.callTool(call)) as CallToolResult;
    const text = resultText(last);
    if (last.isError) throw new Error(`${task.id}: ${call.name} failed:\n${text}`);
    texts.push(text);
  }
  const inner = (last?._meta?.['mcp-devtools/calls'] as unknown[] | undefined)?.length ?? 0;
  const written = calls.map((c) => JSON.stringify(c));
  return {
    turns: 2,
    toolCalls: inner,
    written: reading(written),
    read: reading(texts),
    parts: { searchCall: reading([written[0]!]), searchAnswer: reading([texts[0]!]), program: reading([written[1]!]), printed: reading([texts[1]!]) },
    answer: printedAnswer(texts[1]!),
  };
}

/** Each task both ways, each against a fresh server of its own (no cache carried over). */
export async function measureServerCodeMode(tasks: readonly Task[], world: VendorWorld): Promise<ServerMeasurement> {
  const directServer = (toolsets = DIRECT_TOOLSETS) => ({ ...world.server({ env: { MCP_TOOLSETS: toolsets } }), structuredOutput: false });
  const codeServer = (): ReturnType<VendorWorld['server']> => world.server({ env: { MCP_CODE_MODE: 'true', MCP_EXCLUDE_TOOLS: '' } });
  const measured: ServerTaskMeasure[] = [];
  const everything = await connectToServer(directServer('all'));
  const catalogue = await definitionsOf(everything.client).finally(() => everything.close());
  let definitions: ServerMeasurement['definitions'] | undefined;
  for (const task of tasks) {
    const a = await connectToServer(directServer());
    const b = await connectToServer(codeServer());
    try {
      definitions ??= { direct: await definitionsOf(a.client), catalogue, codeMode: await definitionsOf(b.client) };
      measured.push({ id: task.id, direct: await direct(task, a.client), codeMode: await codeMode(task, b.client) });
    } finally {
      await a.close();
      await b.close();
    }
  }
  return { definitions: definitions!, tasks: measured };
}
