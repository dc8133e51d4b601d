import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/**
 * Real Redis for the tests, never a mock. The suite shares one server: MCP_TEST_REDIS_URL when CI started one
 * (.ci/run), otherwise a redis-server this process starts on a free loopback port and stops when it exits.
 * Tests that kill, pause or restart Redis start a private server of their own.
 */

export const REDIS_BINARY_MISSING =
  'These tests need a real Redis: install redis-server (apt-get install redis-server), or set MCP_TEST_REDIS_URL to a Redis the tests may write to.';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** The password the server requires, if any. */
  readonly password?: string;
  /** SIGKILL: the server is gone, as after a crash. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the server keeps its connections but answers nothing, as when hung. */
  pause(): void;
  resume(): void;
  /** Starts the server again on the same port (after kill), empty: nothing was saved. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

let shared: Promise<string> | undefined;

/** The URL of the Redis every test may share (each test picks its own namespace with `uniqueNamespace`). */
export function sharedRedisUrl(): Promise<string> {
  const given = process.env.MCP_TEST_REDIS_URL;
  if (given) return Promise.resolve(given);
  shared ??= startRedisServer().then((server) => server.url);
  return shared;
}

/** A namespace no other test uses, so tests can share one Redis (or one SQLite file) without clearing it. */
export function uniqueNamespace(label = 'test'): string {
  return `${label}-${randomBytes(6).toString('hex')}`;
}

export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export interface RedisServerOptions {
  password?: string;
  /** Serve TLS only (rediss://), with this certificate and key (see tls-files.ts). */
  tls?: { certFile: string; keyFile: string };
}

/** Starts a private redis-server on a free loopback port, persisting nothing. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (!redisServerAvailable()) throw new Error(REDIS_BINARY_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, dir, options);
    } catch (error) {
      // Another process may take the port between our probe and the server's bind: try another one.
      if (attempt >= 4 || !/already in use/i.test((error as Error).message)) throw error;
    }
  }
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  const stopChild = async (signal: NodeJS.Signals): Promise<void> => {
    const current = child;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
    current.kill('SIGCONT');
    current.kill(signal);
    await exited;
  };
  return {
    url: `${options.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}/0`,
    port,
    password: options.password,
    kill: () => stopChild('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    restart: async () => {
      await stopChild('SIGKILL');
      child = await launch(port, dir, options);
    },
    stop: () => stopChild('SIGTERM'),
  };
}

function launch(port: number, dir: string, options: RedisServerOptions): Promise<ChildProcess> {
  const listen = options.tls
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', options.tls.certFile, '--tls-key-file', options.tls.keyFile, '--tls-auth-clients', 'no']
    : ['--port', String(port)];
  const args = [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  if (options.password !== undefined) args.push('--requirepass', options.password);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not become ready on port ${port}:\n${output}`));
    }, 15_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (/ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${REDIS_BINARY_MISSING} (${error.message})`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`));
    });
  });
}
