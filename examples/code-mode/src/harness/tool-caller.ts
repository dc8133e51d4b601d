import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import { readArtifact } from './artifact-reader.js';
import { errorRecordOf, IncompleteResultError, resultText, toolErrorFromRecord } from './tool-errors.js';

/** `incomplete` of a structured result: the value was too large to send inline. */
interface Incomplete {
  reason: string;
  bytes: number;
  limitBytes: number;
  artifactId: string | null;
}

/**
 * What `tools.<name>(args)` does for a program: calls the tool, and returns its `structuredContent` when the tool
 * advertises an `outputSchema`, or its text otherwise. An `isError` result becomes a typed exception; an
 * `incomplete` value is read back whole from its artifact, so a program always gets the complete value.
 */
export class ToolCaller {
  private readonly structured: ReadonlySet<string>;
  /** Calls made so far, `artifact_read` included: what the server saw. */
  calls = 0;

  constructor(
    private readonly client: Client,
    tools: readonly Tool[],
  ) {
    this.structured = new Set(tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name));
  }

  async call(name: string, args: Record<string, unknown>): Promise<unknown> {
    const result = await this.callTool(name, args);
    if (result.isError) throw toolErrorFromRecord(errorRecordOf(name, result));
    if (!this.structured.has(name)) return resultText(result);
    const value = result.structuredContent as Record<string, unknown> & { incomplete?: Incomplete };
    return value.incomplete === undefined ? value : this.complete(name, value.incomplete, result);
  }

  /** The whole value, as it would have appeared in `structuredContent`, from the artifact the server saved. */
  private async complete(name: string, incomplete: Incomplete, result: CallToolResult): Promise<unknown> {
    if (incomplete.artifactId === null) {
      throw new IncompleteResultError({
        kind: 'incomplete',
        tool: name,
        code: null,
        reason: incomplete.reason,
        text: resultText(result),
        meta: (result._meta ?? {}) as Record<string, unknown>,
        message:
          incomplete.reason === 'size'
            ? `${name}: the value (${incomplete.bytes} bytes, over ${incomplete.limitBytes}) could not be saved; narrow the request with jq or a smaller page`
            : `${name}: the server had no value to report (incomplete.reason "${incomplete.reason}")`,
      });
    }
    const bytes = await readArtifact((tool, args) => this.callTool(tool, args), incomplete.artifactId);
    return JSON.parse(bytes.toString('utf8')) as unknown;
  }

  private async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    this.calls++;
    return (await this.client.callTool({ name, arguments: args })) as CallToolResult;
  }
}
