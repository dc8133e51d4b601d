import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { decode } from '@toon-format/toon';
import { resultText } from '../harness/tool-errors.js';

export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * The direct way, as a model does it: in each turn it makes the tool calls it can make with what it knows (in
 * parallel when they do not depend on each other) and reads every result's text whole. The texts are TOON, the
 * server's default; decoding them with the TOON library stands in for the model reading them, so the answer
 * is computed from exactly what a model would have read and nothing else.
 */
export class DirectAgent {
  /** Every text read, in order: what the measurement counts. */
  readonly texts: string[] = [];
  /** Every call the model wrote, as its API carries one (name and arguments, JSON). */
  readonly written: string[] = [];
  turns = 0;

  constructor(private readonly client: Client) {}

  /** One model turn: the calls, made at once; each result's text decoded, in the order of the calls. */
  async turn(calls: readonly ToolCall[]): Promise<unknown[]> {
    this.turns++;
    for (const c of calls) this.written.push(JSON.stringify({ name: c.tool, arguments: c.args }));
    const results = await Promise.all(calls.map((c) => this.client.callTool({ name: c.tool, arguments: c.args }) as Promise<CallToolResult>));
    return results.map((result, i) => {
      const text = resultText(result);
      this.texts.push(text);
      if (result.isError) throw new Error(`${calls[i]!.tool} failed:\n${text}`);
      return decode(text);
    });
  }

  /** A turn of one call. */
  async call(tool: string, args: Record<string, unknown>): Promise<unknown> {
    return (await this.turn([{ tool, args }]))[0];
  }

  get toolCalls(): number {
    return this.texts.length;
  }
}
