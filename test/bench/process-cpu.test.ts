import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { CpuSpan, treeCpuMs } from './process-cpu.js';

/**
 * A child that burns `cpuMs` of its own CPU time (counted by itself, so however busy the machine is), then says
 * so and waits for its stdin to close: its CPU stays on the books while the test reads them.
 */
async function busyChild(cpuMs: number): Promise<ChildProcess> {
  const script = `const end = ${cpuMs * 1000}; for (;;) { const u = process.cpuUsage(); if (u.user + u.system >= end) break; }
process.stdout.write('done\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return child;
}

describe('the benchmark reads the CPU of a server with its workers', () => {
  if (process.platform !== 'linux') return;

  it('counts the CPU of a process and of the processes it started', async () => {
    const before = treeCpuMs(process.pid)!;
    const children = [await busyChild(300), await busyChild(300)];
    try {
      const after = treeCpuMs(process.pid)!;
      // Both children's 600 ms are counted (less the 10 ms tick /proc rounds each one's time down to).
      expect(after - before).to.be.at.least(600 - 20);
      // Each child alone: its 300 ms (its start-up counts towards them), once, and little more (writing "done").
      for (const child of children) expect(treeCpuMs(child.pid!)).to.be.within(300 - 10, 300 + 60);
    } finally {
      for (const child of children) {
        child.stdin!.end();
        await once(child, 'exit');
      }
    }
  });

  it('counts nothing for a process that has gone', async () => {
    const child = await busyChild(10);
    child.stdin!.end();
    await once(child, 'exit');
    expect(treeCpuMs(child.pid!)).to.equal(0);
  });

  it('divides the CPU used since a span began among the calls it served, and gives nothing it cannot know', async () => {
    // A child that burns 200 ms of its own CPU once told to, so that the span begins before it does.
    const script = `process.stdin.once('data', () => { for (;;) { const u = process.cpuUsage(); if (u.user + u.system >= 400000) break; }
process.stdout.write('done\\n'); process.stdin.on('end', () => process.exit(0)); });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // its start-up, before the span
      const span = new CpuSpan(child.pid);
      const before = treeCpuMs(child.pid!)!;
      child.stdin!.write('go\n');
      await once(child.stdout!, 'data');
      // The child stops at 400 ms of CPU in all: the span saw what it used after its start-up, over 4 calls (give or
      // take the 10 ms tick /proc rounds to, and writing "done").
      expect(span.perCall(4)).to.be.within((400 - before - 20) / 4, (400 - before + 40) / 4);
      expect(span.perCall(0)).to.equal(undefined);
    } finally {
      child.stdin!.end();
      await once(child, 'exit');
    }
    expect(new CpuSpan(undefined).perCall(4)).to.equal(undefined);
  });
});
