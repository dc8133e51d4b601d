/**
 * `node build/test/bench/startup-only.js [--before DIR] [--runs N] [--node PATH]`: the bench's start-up part alone
 * (ours, the baseline build in DIR, the bare SDK server, side by side in one run), for a quick look while
 * working on start-up; `npm run bench` measures it with everything else and writes docs/benchmarks.md.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSdkFloor } from './sdk-floor.js';
import { benchStartup } from './startup.js';

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const before = option('--before');
const runs = Number(option('--runs') ?? '21');
const node = option('--node') ?? process.execPath;
const floor = await bundleSdkFloor(join(mkdtempSync(join(tmpdir(), 'mcp-devtools-startup-only-')), 'sdk-floor'));
const result = await benchStartup(node, runs, before === undefined ? undefined : join(before, 'dist/cli.js'), floor);
const ms = (s: { median: number } | undefined): string => (s === undefined ? '-' : `${s.median.toFixed(1)} ms`);
process.stdout.write(
  `${result.node}: ours ${ms(result.ours)}, before ${ms(result.before)}, bare SDK ${ms(result.sdkFloor)}; ` +
    `ours/SDK ${(result.ours.median / result.sdkFloor!.median).toFixed(2)}x` +
    (result.before === undefined ? '' : `, before/SDK ${(result.before.median / result.sdkFloor!.median).toFixed(2)}x`) +
    '\n',
);
