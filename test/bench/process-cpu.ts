import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks a second in /proc's utime and stime (USER_HZ: 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time (user + system, in milliseconds) a process and all its descendants have used so far: a server
 * and its `--workers`. Read from /proc; undefined where there is none (not Linux), so callers leave the figure out.
 *
 * Why the benchmark reads it: on a shared machine calls/s moves with whatever else runs (windows of one build
 * read 33 to 127 calls/s in one A/B), while the server's CPU a call moves far less, so it tells a change in
 * our code from a busier machine.
 */
export function treeCpuMs(pid: number): number | undefined {
  if (!hasProc()) return undefined;
  let ticks = 0;
  for (const id of descendantsAndSelf(pid)) ticks += cpuTicksOf(id);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * The CPU a server (its processes, workers included) uses from now on, read at both ends of some calls: a
 * throughput window, or a per-call row.
 */
export class CpuSpan {
  private readonly start: number | undefined;

  constructor(private readonly pid: number | undefined) {
    this.start = pid === undefined ? undefined : treeCpuMs(pid);
  }

  /** Milliseconds of CPU a call since the span began; undefined when /proc could not be read, or no calls. */
  perCall(calls: number): number | undefined {
    const end = this.pid === undefined ? undefined : treeCpuMs(this.pid);
    if (this.start === undefined || end === undefined || calls <= 0) return undefined;
    return (end - this.start) / calls;
  }
}

function hasProc(): boolean {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
}

/** CPU time one process has used, in clock ticks (utime + stime of /proc/<pid>/stat); 0 once it has gone. */
export function cpuTicksOf(pid: number): number {
  try {
    const fields = statFields(pid);
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Minor page faults of one process so far: pages it touched for the first time (minflt of /proc/<pid>/stat). */
export function minorFaultsOf(pid: number): number {
  return Number(statFields(pid)[7]);
}

/** The fields of /proc/<pid>/stat after the command name, which is in parentheses and may itself hold spaces or parentheses. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function descendantsAndSelf(pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++) found.push(...childrenOf(found[i]!));
  return found;
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (listed !== '') children.push(...listed.split(/\s+/).map(Number));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return children;
}
