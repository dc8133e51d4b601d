/**
 * `npm run bench:code-mode`: the code-mode part of the bench alone (issue 54), put into docs/benchmarks.md in
 * place: its target rows, its tools/list row, and its run-of-record subsection. A full `npm run bench` renders
 * the same rows and section from the same functions. `-- --no-install` skips `npm ci` in examples/code-mode.
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.js';
import { benchCodeMode } from './code-mode.js';
import { CODE_MODE_HEADING, codeModeSection, codeModeTargets } from './code-mode-report.js';
import type { Outcome } from './results.js';
import type { CodeModeBench } from './code-mode.js';
import { benchToolsList, TOOLS_LIST_CONFIGURATIONS } from './tools-list-tokens.js';

const DOC = join(REPO_ROOT, 'docs/benchmarks.md');
const verdict = (met: boolean | undefined): string => (met === undefined ? 'not measured' : met ? 'met' : '**missed**');

const started = performance.now();
const codeMode: Outcome<CodeModeBench> = await benchCodeMode({
  calls: 200,
  programs: 200,
  tokensFile: join(REPO_ROOT, 'build/bench-code-mode-tokens.json'),
  // --no-install: examples/code-mode's node_modules as they are (a worktree whose packages are linked, not installed).
  installExample: !process.argv.includes('--no-install'),
}).then(
  (value) => ({ ok: true, value }),
  (error: unknown) => ({ ok: false, error: (error as Error).message.split('\n')[0]! }),
);
const [toolsList] = await benchToolsList(TOOLS_LIST_CONFIGURATIONS.filter((c) => c.args.includes('--code-mode')));

let doc = readFileSync(DOC, 'utf8');
const lines = doc
  .split('\n')
  .filter((line) => !line.startsWith('| code mode: ') && !line.startsWith('| tools/list, code mode') && !line.startsWith('| code mode | `--code-mode`'));
// Targets: the tools/list row after the other tools/list rows, the code-mode rows last.
const targetRows = codeModeTargets(codeMode).map((t) => `| ${t.target} | ${t.budget} | ${t.figure} | ${verdict(t.met)} |`);
if (toolsList !== undefined && 'tokens' in toolsList.measured) {
  const { tokens, tools } = toolsList.measured;
  const budget = toolsList.budget.toLocaleString('en-US');
  const lastToolsList = lines.findLastIndex((line) => line.startsWith('| tools/list, '));
  lines.splice(
    lastToolsList + 1,
    0,
    `| tools/list, code mode (\`--code-mode\`), structured output off | <= ${budget} o200k tokens | ${tokens.toLocaleString('en-US')} tokens (${tools} tools) | ${verdict(tokens <= toolsList.budget)} |`,
  );
  const heading = lines.indexOf('### Tokens: tools/list');
  const tokensTableEnd = lines.findIndex((line, i) => i > heading + 2 && line === '' && lines[i - 1]!.startsWith('| '));
  lines.splice(
    tokensTableEnd,
    0,
    `| code mode | \`--code-mode\` | ${tools} | ${tokens.toLocaleString('en-US')} | ${budget} | ${verdict(tokens <= toolsList.budget)} |`,
  );
}
const lastTarget = lines.findIndex((line, i) => i > lines.indexOf('## Targets') && line === '' && lines[i - 1]!.startsWith('| '));
lines.splice(lastTarget, 0, ...targetRows);
doc = lines.join('\n');
// The subsection: replaced where it is, else placed before the mechanisms' one.
const section = `${CODE_MODE_HEADING}\n\nWritten by \`npm run bench:code-mode\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.\n\n${codeModeSection(codeMode)}\n\n`;
const at = doc.indexOf(CODE_MODE_HEADING);
if (at >= 0) doc = doc.slice(0, at) + section + doc.slice(doc.indexOf('\n### ', at + 1) + 1);
else doc = doc.replace('### Mechanisms against the plain way', `${section}### Mechanisms against the plain way`);
writeFileSync(DOC, doc);
process.stderr.write(`docs/benchmarks.md: code mode written (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
process.exit(codeMode.ok ? 0 : 1);
