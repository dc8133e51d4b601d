import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  commit: string;
  loadAtStart: number[];
}

/** Load averages over 1, 5 and 15 minutes, to two decimals. */
export const loadNow = (): number[] => loadavg().map((l) => Math.round(l * 100) / 100);

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
    loadAtStart: loadNow(),
  };
}
