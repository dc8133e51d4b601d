import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const docsOf = (name: string): string => fileURLToPath(new URL(`docs/${name}`, import.meta.resolve('mcp-devtools/package.json')));

/** docs/harness.md of the repository this example belongs to. */
export const HARNESS_DOC = docsOf('harness.md');
/** The docs that show the measured tables: harness.md, and the "Harness example" of structured-output.md. */
export const MEASURED_DOCS = [HARNESS_DOC, docsOf('structured-output.md')];

const BEGIN = '<!-- measurement: begin (npm run harness:measure) -->';
const END = '<!-- measurement: end -->';

/** Where the tables are in docs/harness.md: the text between its markers. */
function tablesBlock(doc: string, path: string): { start: number; end: number } {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${path} has no "${BEGIN}" ... "${END}" block`);
  return { start: begin + BEGIN.length, end };
}

/** The measured tables as a doc shows them. */
export function documentedTables(path: string): string {
  const doc = readFileSync(path, 'utf8');
  const { start, end } = tablesBlock(doc, path);
  return doc.slice(start, end).trim();
}

/** Replaces the tables between the markers of every doc that shows them. */
export function writeDocumentedTables(tables: string): void {
  for (const path of MEASURED_DOCS) {
    const doc = readFileSync(path, 'utf8');
    const { start, end } = tablesBlock(doc, path);
    writeFileSync(path, `${doc.slice(0, start)}\n${tables.trim()}\n${doc.slice(end)}`);
  }
}

/** The fenced code block that follows `<!-- marker -->` in docs/harness.md (examples the tests keep in step). */
export function documentedCode(marker: string): string {
  const doc = readFileSync(HARNESS_DOC, 'utf8');
  const found = new RegExp(`<!-- ${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (found === null) throw new Error(`${HARNESS_DOC} has no code block after <!-- ${marker} -->`);
  return found[1]!;
}
