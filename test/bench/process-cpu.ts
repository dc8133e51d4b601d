import { readFileSync } from 'node:fs';

/**
 * CPU time one process has used, in clock ticks (utime + stime of /proc/<pid>/stat); 0 once it has gone.
 * test/e2e/workers.test.ts reads it to see that each worker served calls.
 */
export function cpuTicksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may itself hold spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
