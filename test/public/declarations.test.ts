import { join } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { BUNDLE_DIR } from '../support/paths.js';

const ENTRIES = ['plugin.d.ts', 'testing.d.ts'].map((p) => join(BUNDLE_DIR, p));

describe('public API: the shipped type declarations', () => {
  it('type-check on their own, with every import resolved', function () {
    this.timeout(60_000);
    const program = ts.createProgram(ENTRIES, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], // the SDK's declarations name fetch types (HeadersInit)
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    });
    // Only our files are checked (the dependencies' declarations are theirs to keep), chunks included.
    const ours = program.getSourceFiles().filter((f) => f.fileName.startsWith(BUNDLE_DIR));
    expect(ours.map((f) => f.fileName)).to.include.members(ENTRIES);
    const problems = [
      ...program.getOptionsDiagnostics(),
      ...ours.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
    ];
    expect(problems.map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)).to.deep.equal([]);
  });
});
