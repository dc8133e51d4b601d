// Every sample in README.md and docs/ that shows a command and its output is run by a test, which compares the
// output with the one shown. A sample of a command no test runs fails here: add it to a test, then here.
import { expect } from 'chai';
import { docsFiles, readDoc, terminalSamples } from '../support/markdown.js';

/** The commands whose samples are checked, and the test that runs them. */
const CHECKED: Array<{ prefix: string; by: string }> = [
  { prefix: 'mcp-devtools tools', by: 'test/docs/readme.test.ts' },
  { prefix: 'mcp-devtools audit verify ', by: 'test/docs/policy-doc.test.ts' },
  { prefix: 'env -i ', by: 'test/docs/deployment-doc.test.ts' },
  { prefix: 'curl -s ', by: 'test/docs/deployment-doc.test.ts' },
];

describe('command samples in README.md and docs/', () => {
  it('are each run by a test that compares its output', () => {
    const samples = ['README.md', ...docsFiles()].flatMap((file) => terminalSamples(readDoc(file)).map((s) => ({ file, ...s })));
    expect(samples.length).to.be.at.least(6);
    const unchecked = samples.filter((s) => !CHECKED.some((c) => s.command.startsWith(c.prefix))).map((s) => `${s.file} line ${s.line}: $ ${s.command}`);
    expect(unchecked).to.deep.equal([]);
  });
});
