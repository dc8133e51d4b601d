import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argvHere, composeArgv, composeFile, type ComposeService } from './deployment-files.js';
import { freePort } from './free-port.js';
import { REPO_ROOT } from './paths.js';

/** Where compose.yaml mounts Redis's configuration file and its secrets. */
const MOUNTED_CONFIG = '/usr/local/etc/redis/redis.conf';
const SECRETS = '/run/secrets/';

/** One RESP command over a plain socket: Redis's first answer line. */
export function redisAnswer(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    socket.once('data', (data) => {
      resolve(data.toString('utf8').split('\r\n')[0]!);
      socket.end();
    });
    socket.once('error', reject);
  });
}

async function untilAnswers(port: number, child: ChildProcess): Promise<void> {
  for (const deadline = Date.now() + 10_000; ;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    try {
      await redisAnswer(port, 'PING');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export interface ComposeRedis {
  port: number;
  /** The secrets folder standing in for /run/secrets (the Redis password is its file redis-password). */
  secrets: string;
  /** The data folder standing in for the volume at /data. */
  data: string;
  /** The command line of the running redis-server, as `ps` shows it. */
  cmdline(): string;
  /** Stops the process with `signal` (SIGTERM as `docker compose restart` sends it, SIGKILL for a crash). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, configuration, password and data folder. */
  start(): Promise<void>;
}

/**
 * compose.yaml's Redis on this machine: the service's own command line, run by sh as the container runs it, with
 * deploy/compose/redis.conf adapted only for what differs here (a free port on loopback, a scratch folder for the
 * volume at /data) and the password in a secret file of its own.
 */
export async function startComposeRedis(password: string): Promise<ComposeRedis> {
  const folder = mkdtempSync(join(tmpdir(), 'compose-redis-'));
  const secrets = join(folder, 'secrets');
  const data = join(folder, 'data');
  mkdirSync(secrets);
  mkdirSync(data);
  writeFileSync(join(secrets, 'redis-password'), `${password}\n`);
  const port = await freePort();
  const config = readFileSync(join(REPO_ROOT, 'deploy/compose/redis.conf'), 'utf8');
  if (!/^dir \/data$/m.test(config)) throw new Error('deploy/compose/redis.conf no longer keeps its data in /data (the volume)');
  writeFileSync(join(folder, 'redis.conf'), `${config.replace(/^dir \/data$/m, `dir ${data}`)}\nport ${port}\nbind 127.0.0.1\n`);
  const service = composeFile().services.redis as ComposeService;
  const argv = argvHere(composeArgv(service), { [MOUNTED_CONFIG]: join(folder, 'redis.conf'), [SECRETS]: `${secrets}/` });
  let child: ChildProcess;
  const start = async (): Promise<void> => {
    child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', env: { PATH: process.env.PATH ?? '' } });
    await untilAnswers(port, child);
  };
  await start();
  return {
    port,
    secrets,
    data,
    cmdline: () => readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').join(' '),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
    start,
  };
}
