import type { Tool } from '@modelcontextprotocol/client';
import { compileProgram } from './program-compiler.js';
import { DEFAULT_LIMITS, runInSandbox, type SandboxLimits, type SandboxRun } from './sandbox.js';
import { connectToServer, type ServerConnection, type ServerOptions } from './server-connection.js';
import { generateDeclarations } from './tool-declarations.js';
import { ToolCaller } from './tool-caller.js';

export interface ProgramRun extends SandboxRun {
  /** Tool calls the program made, `artifact_read` calls of the binding included. */
  toolCalls: number;
}

/**
 * Code mode over mcp-devtools: connects to the server, lists its tools, and declares them in TypeScript; then
 * runs programs written against those declarations (type-checked, transpiled, sandboxed) whose only way out is
 * `tools.<name>(args)`.
 *
 *   const harness = await CodeModeHarness.start({ env: process.env });
 *   console.log(harness.declarations);             // what the model reads to write a program
 *   const run = await harness.run(programSource);  // run.printed is what it reads back
 */
export class CodeModeHarness {
  private constructor(
    private readonly connection: ServerConnection,
    readonly tools: readonly Tool[],
    readonly declarations: string,
  ) {}

  static async start(options: ServerOptions = {}): Promise<CodeModeHarness> {
    const connection = await connectToServer(options);
    try {
      const { tools } = await connection.client.listTools();
      return new CodeModeHarness(connection, tools, await generateDeclarations(tools));
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  /**
   * Type-checks and runs one program. Rejects with ProgramTypeError before running anything, with a
   * SandboxError (time limit, forbidden global, uncaught error) or with the typed error of a tool call the
   * program did not catch (ToolCallError, PolicyDeniedError, ApprovalRequiredError, IncompleteResultError).
   */
  async run(source: string, limits: Partial<SandboxLimits> = {}): Promise<ProgramRun> {
    const script = compileProgram(source, this.declarations);
    return this.runScript(script, limits);
  }

  /** Runs JavaScript as is, without the type check (a script whose completion value is awaited). */
  async runScript(script: string, limits: Partial<SandboxLimits> = {}): Promise<ProgramRun> {
    const caller = new ToolCaller(this.connection.client, this.tools);
    const names = this.tools.map((t) => t.name);
    const run = await runInSandbox(script, names, (tool, args) => caller.call(tool, args), { ...DEFAULT_LIMITS, ...limits });
    return { ...run, toolCalls: caller.calls };
  }

  /**
   * Calls one tool from harness code, as a program's `tools.<name>(args)` would: the structured value (read back
   * whole when incomplete) or the text, and the same typed errors.
   */
  async call(tool: string, args: Record<string, unknown> = {}): Promise<unknown> {
    return new ToolCaller(this.connection.client, this.tools).call(tool, args);
  }

  /** The server's last log lines. */
  serverLog(): string[] {
    return this.connection.logTail();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
