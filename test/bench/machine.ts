import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.js';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  commit: string;
  loadAtStart: number[];
  /**
   * Microseconds to make an empty owner-only file where the servers' full-text files go (fileCreateMicros);
   * absent from the results of runs made before it was measured.
   */
  fileCreateMicros?: number;
}

/** What the figures were measured on: they mean little without it. */
export function describeMachine(): MachineInfo {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout: the figures still stand, without the commit
  }
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `Linux ${release()}`,
    node: process.version,
    commit,
    loadAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    fileCreateMicros: fileCreateMicros(),
  };
}

/**
 * The median time to make an empty owner-only file (`wx`, 0600, as the servers do for the whole text of every
 * cut call) in a folder made the way a test server's is (a `raw` folder in a new one under the run's temporary
 * folder). On this machine's aged ext4 /tmp it ranged from 14 to 350 us between folders made the same way, by
 * where the file system put them: up to 0.3 ms of system time a call that no server's code decides, and part of
 * why figures move between runs.
 */
function fileCreateMicros(files = 300): number {
  const parent = mkdtempSync(join(tmpdir(), 'mcp-devtools-file-cost-'));
  const dir = join(parent, 'raw');
  const times: number[] = [];
  try {
    mkdirSync(dir, { mode: 0o700 });
    for (let i = 0; i < files; i++) {
      const started = process.hrtime.bigint();
      closeSync(openSync(join(dir, `raw-${i}.txt`), 'wx', 0o600));
      times.push(Number(process.hrtime.bigint() - started) / 1000);
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  return Math.round(median(times) * 10) / 10;
}
