/**
 * `npm run bench:provenance`: what labels and fences add to the tokens of typical reads (issue 52's budget), put
 * into docs/untrusted-content.md between its markers.
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.js';
import { benchProvenanceTokens, PROVENANCE_TOKEN_BUDGET, type ProvenanceBench, type ProvenanceRow } from './provenance-tokens.js';
import { median } from './stats.js';

const DOC = join(REPO_ROOT, 'docs/untrusted-content.md');
const BEGIN = '<!-- provenance tokens: begin (npm run bench:provenance) -->';
const END = '<!-- provenance tokens: end -->';
const RUNS = 15;

const percent = (without: number, withFences: number): string => `${(((withFences - without) / without) * 100).toFixed(1)}%`;

/** Where a read's cost comes from: the marks around each fenced string, and the rest (the header, the nesting). */
function why(r: ProvenanceRow): string {
  const marks = r.strings * r.marks;
  const rest = r.with - r.without - marks;
  return `${r.strings} strings fenced (${r.fenced}) × ${r.marks} tokens of marks = ${marks}; the header and the answer set under \`data:\`: ${rest}.`;
}

function table(bench: ProvenanceBench): string {
  const { without, with: withFences } = bench.unprojected;
  const share = (withFences - without) / without;
  const perRead = median(bench.rows.filter((r) => r.way === 'unprojected').map((r) => (r.with - r.without) / r.without));
  const lines = [
    `Measured by \`npm run bench:provenance\` on ${new Date().toISOString().slice(0, 10)}: o200k_base tokens of the text a model reads`,
    `(\`content[0].text\`), the median of ${RUNS} calls each, with fences (the default) and with \`MCP_FENCE=false\`.`,
    '',
    '| Tool | Way | Without fences | With fences | Increase | `_meta` provenance | Where the cost comes from |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...bench.rows.map(
      (r) =>
        `| \`${r.tool}\` | ${r.way === 'unprojected' ? 'unprojected' : `jq \`${r.way}\``} | ${r.without} | ${r.with} | ${percent(r.without, r.with)} | ${r.meta} | ${why(r)} |`,
    ),
    '',
    `Overall, the unprojected reads above: ${without} tokens without fences, ${withFences} with, ${percent(without, withFences)}`,
    `(the median read: ${(perRead * 100).toFixed(1)}%). The budget (at most ${PROVENANCE_TOKEN_BUDGET * 100}% on a typical unprojected read) is`,
    `${share <= PROVENANCE_TOKEN_BUDGET && perRead <= PROVENANCE_TOKEN_BUDGET ? 'met' : '**missed**'}. A read whose authors are all trusted costs nothing: its text is the same as with fences off.`,
  ];
  return lines.join('\n');
}

const bench = await benchProvenanceTokens(RUNS);
const doc = readFileSync(DOC, 'utf8');
const begin = doc.indexOf(BEGIN);
const end = doc.indexOf(END);
if (begin < 0 || end < begin) throw new Error(`docs/untrusted-content.md has no ${BEGIN} … ${END} markers`);
writeFileSync(DOC, `${doc.slice(0, begin + BEGIN.length)}\n${table(bench)}\n${doc.slice(end)}`);
process.stderr.write(`docs/untrusted-content.md: provenance tokens written\n${table(bench)}\n`);
process.exit(0);
