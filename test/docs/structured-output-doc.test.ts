import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';
import { comparable, structuredExamples } from './structured-examples.js';

/** `<!-- example: NAME -->` followed by a json code block, as docs/structured-output.md marks its examples. */
function documentedExamples(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of markdown.matchAll(/<!-- example: ([\w-]+) -->\n```json\n([\s\S]*?)\n```/g)) found.set(m[1]!, m[2]!);
  return found;
}

describe('docs/structured-output.md', () => {
  let generated: Map<string, string>;
  let documented: Map<string, string>;

  before(async () => {
    generated = await structuredExamples();
    documented = documentedExamples(readFileSync(join(REPO_ROOT, 'docs/structured-output.md'), 'utf8'));
  });

  it('shows every worked example a real run produces, and no other', () => {
    expect([...documented.keys()].sort()).to.deep.equal([...generated.keys()].sort());
  });

  it('shows each example exactly as the real run prints it (npm run docs:structured-examples)', () => {
    for (const [name, example] of generated) expect(comparable(documented.get(name) ?? ''), name).to.equal(comparable(example));
  });

  it('documents both settings with their defaults and the bound clamping', () => {
    const text = readFileSync(join(REPO_ROOT, 'docs/structured-output.md'), 'utf8');
    expect(text).to.contain('| `MCP_STRUCTURED_OUTPUT` | `false` |');
    expect(text).to.contain('| `MCP_STRUCTURED_MAX_BYTES` | `262144`; clamped to 16384–16777216 |');
  });
});
