import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { everyToolUnlessChosen } from './every-tool.js';
import { CLI_PATH } from './paths.js';
import { isolatedEnv } from './sdk-client.js';

export interface JsonRpcReply {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * `dist/cli.js` over stdio with no client library in between: the test writes raw bytes to stdin (malformed
 * JSON, oversized lines, cancellations) and reads every line the server writes to stdout.
 */
export class RawStdioServer {
  readonly replies: JsonRpcReply[] = [];
  /** Lines on stdout that were not JSON: there must be none. */
  readonly garbage: string[] = [];
  readonly stderr: string[] = [];
  private buffered = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      let newline: number;
      while ((newline = this.buffered.indexOf('\n')) !== -1) {
        const line = this.buffered.slice(0, newline);
        this.buffered = this.buffered.slice(newline + 1);
        try {
          this.replies.push(JSON.parse(line) as JsonRpcReply);
        } catch {
          this.garbage.push(line);
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  }

  /** The server after a 2025-era handshake (`initialize` with `protocolVersion`, then `initialized`). */
  static async start(env: Record<string, string>, cwd: string, protocolVersion = '2025-11-25'): Promise<RawStdioServer> {
    const server = RawStdioServer.spawn(env, cwd);
    server.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await server.reply('init');
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return server;
  }

  /** The server as started, before any message: the test writes the opening exchange itself. */
  static spawn(env: Record<string, string>, cwd: string): RawStdioServer {
    const child = spawn(process.execPath, [CLI_PATH], { cwd, env: isolatedEnv(everyToolUnlessChosen(env), cwd), stdio: ['pipe', 'pipe', 'pipe'] });
    return new RawStdioServer(child);
  }

  /** The exit code, once the process has ended. */
  async exitCode(): Promise<number | null> {
    if (this.exited) return this.child.exitCode;
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Closes the server's stdout from the reading end, as a client that went away (or `| head`) does. */
  closeStdout(): void {
    this.child.stdout.destroy();
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Writes a message (serialized) or raw text, plus the newline that ends a message. */
  send(message: unknown): void {
    this.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  write(raw: string | Buffer): void {
    this.child.stdin.write(raw);
  }

  /** The reply with this id, once it has arrived (the test's own timeout bounds the wait). */
  async reply(id: string | number | null, after = 0): Promise<JsonRpcReply> {
    for (;;) {
      const found = this.replies.slice(after).find((r) => r.id === id);
      if (found !== undefined) return found;
      if (this.exited) throw new Error(`the server exited before answering ${JSON.stringify(id)}:\n${this.stderr.slice(-5).join('\n')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Sends a ping and waits for its pong: everything sent before it has been read and handled or answered. */
  async ping(id: string): Promise<void> {
    this.send({ jsonrpc: '2.0', id, method: 'ping' });
    const pong = await this.reply(id);
    if (pong.result === undefined) throw new Error(`ping ${id} failed: ${JSON.stringify(pong)}`);
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}
