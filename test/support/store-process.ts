import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const CLIENT = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/stores/store-client.js');

/** Runs one store operation in a separate Node process (see test/fixtures/stores/store-client.ts). */
export function inOtherProcess(url: string, deployment: string, ...args: string[]): Promise<unknown> {
  return inProcessWithEnv({}, url, deployment, ...args);
}

/** The same, with extra environment for the process (NODE_EXTRA_CA_CERTS). */
export async function inProcessWithEnv(env: Record<string, string>, url: string, deployment: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLIENT, url, deployment, ...args], { timeout: 60_000, env: { ...process.env, ...env } });
  return JSON.parse(stdout) as unknown;
}
