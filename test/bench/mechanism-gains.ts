import { jiraSearchBody } from './jira-bodies.js';
import type { Mechanism } from './mechanisms.js';
import { since, summarize, type Summary } from './stats.js';

export interface MechanismRow {
  mechanism: string;
  bodyBytes: number;
  /** Milliseconds of one run of each way on the page. */
  fast: Summary;
  plain: Summary;
}

/** How much less time the fast way takes than the plain one: 0.25 when it takes three quarters. */
export const gainOf = (row: MechanismRow): number => 1 - row.fast.median / row.plain.median;

/** The least gain on some row for a mechanism to stay (issue 40). */
export const MECHANISM_MIN_GAIN = 0.1;

/**
 * Each mechanism against its plain way, in this process, on a Jira search page of each size: the two ways take
 * turns, the order swapped each round, after a warm-up on a 20 KB page (V8 compiles both first). Before any
 * timing, both ways must give the same result on every page, or the mechanism is not what it claims to be.
 */
export function benchMechanisms(mechanisms: Mechanism[], sizes: number[], iterations: (bytes: number) => number): MechanismRow[] {
  const rows: MechanismRow[] = [];
  for (const m of mechanisms) {
    const small = m.input(jiraSearchBody(20 * 1024));
    for (let i = 0; i < 200; i++) {
      m.fastWay(small);
      m.plainWay(small);
    }
    for (const bytes of sizes) {
      const page = jiraSearchBody(bytes);
      const input = m.input(page);
      if (comparable(m.fastWay(input)) !== comparable(m.plainWay(input)))
        throw new Error(`${m.name}: the fast way's result differs from the plain way's on a ${page.length} B page`);
      const samples = { fast: [] as number[], plain: [] as number[] };
      for (let i = 0; i < iterations(bytes); i++) {
        for (const way of i % 2 === 0 ? (['fast', 'plain'] as const) : (['plain', 'fast'] as const)) {
          const started = performance.now();
          if (way === 'fast') m.fastWay(input);
          else m.plainWay(input);
          samples[way].push(since(started));
        }
      }
      rows.push({ mechanism: m.name, bodyBytes: page.length, fast: summarize(samples.fast), plain: summarize(samples.plain) });
      process.stderr.write(`  ${m.name} ${page.length} B: ${rows.at(-1)!.fast.median.toFixed(3)} ms against ${rows.at(-1)!.plain.median.toFixed(3)} ms\n`);
    }
  }
  return rows;
}

/** A result as text to compare: pieces of text joined, anything else as JSON. */
function comparable(result: unknown): string {
  if (typeof result === 'string') return result;
  if (Array.isArray(result) && result.every((piece) => typeof piece === 'string')) return result.join('');
  return JSON.stringify(result);
}
