import { symbols as pinoSymbols } from 'pino';
import type { Settings } from '../../../core/config/settings.js';
import { Kernel, type KernelOptions } from '../../../core/kernel/kernel.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { leakAudit } from './leak-audit.js';

let installed = false;

/**
 * Taps every kernel the test process starts (the test kit, the CLI's in-process commands, every suite): its
 * secrets become canaries, and every result, log line and store write it makes is scanned; its raw response
 * folder, audit log and SQLite file are scanned after the suite. The kernel itself is unchanged: the taps
 * wrap `Kernel.start`, `callTimed`, the log destination and `store.set`, and only read what passes.
 */
export function tapEveryKernel(): void {
  if (installed) return;
  installed = true;
  const start = Kernel.start.bind(Kernel);
  Kernel.start = async (options: KernelOptions): Promise<Kernel> => {
    leakAudit.addCanaries(canariesOf(options.settings));
    for (const path of pathsOf(options.settings)) leakAudit.watchPath(path);
    tapLogDestination(options.logger);
    tapStore(options.store);
    return start(options);
  };
  const callTimed = Kernel.prototype.callTimed;
  Kernel.prototype.callTimed = async function (this: Kernel, name, args, principal, options) {
    const outcome = await callTimed.call(this, name, args, principal, options);
    leakAudit.result(name, outcome.result);
    return outcome;
  };
}

/** The configured secrets, and the Basic credentials the Atlassian plugins would send made of them. */
function canariesOf(settings: Settings): string[] {
  const secrets = settings.secretValues();
  const basic = (user: string, secret: string): string[] => {
    const [u, s] = [optional(settings, user), optional(settings, secret)];
    return u !== '' && s !== '' ? [Buffer.from(`${u}:${s}`).toString('base64')] : [];
  };
  return [...secrets, ...basic('ATLASSIAN_USER_EMAIL', 'ATLASSIAN_API_TOKEN'), ...basic('ATLASSIAN_BITBUCKET_USERNAME', 'ATLASSIAN_BITBUCKET_APP_PASSWORD')];
}

/** Where this kernel writes files an operator could read: truncated results, the audit log, a SQLite store. */
function pathsOf(settings: Settings): string[] {
  const paths = [optional(settings, 'MCP_RAW_RESPONSE_DIR'), optional(settings, 'MCP_AUDIT_LOG')];
  const audit = optional(settings, 'MCP_AUDIT_LOG');
  if (audit !== '') paths.push(`${audit}.head`);
  const store = optional(settings, 'MCP_STORE_URL');
  if (store.startsWith('sqlite://')) {
    const file = new URL(store).pathname;
    paths.push(file, `${file}-wal`, `${file}-shm`);
  }
  return paths;
}

function optional(settings: Settings, key: string): string {
  return settings.has(key) ? String(settings.get(key) ?? '') : '';
}

type Writable = { write(line: string): unknown };

/** Every line the logger writes, after its own redaction: exactly what reaches stderr or the test's capture. */
function tapLogDestination(logger: KernelOptions['logger']): void {
  const stream = (logger as unknown as Record<symbol, Writable | undefined>)[pinoSymbols.streamSym];
  if (stream === undefined || typeof stream.write !== 'function') return;
  const write = stream.write.bind(stream);
  stream.write = (line: string) => {
    leakAudit.logLine(String(line));
    return write(line);
  };
}

function tapStore(store: KeyValueStore): void {
  const set = store.set.bind(store);
  store.set = (namespace, key, value, ttlMs) => {
    leakAudit.storeWrite(namespace, value);
    return set(namespace, key, value, ttlMs);
  };
}
