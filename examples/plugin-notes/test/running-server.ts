import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The installed mcp-devtools command, as users run it. */
export const CLI = fileURLToPath(import.meta.resolve('mcp-devtools/dist/cli.js'));
/** This example's folder: its mcp-devtools.config.json loads the plugin from build/src. */
export const EXAMPLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Person {
  token: string;
  subject: string;
  groups: string[];
}

/** A tokens file (MCP_AUTH_TOKENS_FILE) holding the SHA-256 of each person's token, and a SQLite store file beside it. */
export function deployment(people: readonly Person[]): { env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-notes-'));
  const lines = people.map(
    (p) => `  - { sha256: ${createHash('sha256').update(p.token).digest('hex')}, subject: ${p.subject}, groups: [${p.groups.join(', ')}] }`,
  );
  writeFileSync(join(dir, 'tokens.yaml'), `tokens:\n${lines.join('\n')}\n`);
  return {
    env: {
      MCP_AUTH_MODE: 'tokens',
      MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
      MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}`,
    },
  };
}

export interface RunningServer {
  /** http://127.0.0.1:PORT */
  base: string;
  stop(): Promise<void>;
}

/** `mcp-devtools --transport http --port 0` in the example's folder, until its log line says where it listens. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [CLI, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'], {
    cwd: EXAMPLE,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        log.push(line);
        const found = /"url":"(http:\/\/[^"]+)\/mcp"/.exec(line);
        if (found !== null) resolve(found[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`mcp-devtools exited (${code}) before listening:\n${log.join('\n')}`)));
  });
  return {
    base: url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** `mcp-devtools ARGS...` in the example's folder: its exit code and output. */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: EXAMPLE, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('close', (code) => resolve({ code, stdout, stderr: withoutRuntimeNotice(stderr) }));
  });
}

/** Every command warns on stderr when Node.js is past end of life (Node 20); the tests read what it says besides. */
const withoutRuntimeNotice = (stderr: string): string => stderr.replace(/^warning: Node\.js \S+ is past end of life[^\n]*\n/m, '');
