import ts from 'typescript';

/**
 * Finds `import(...)` and `import.meta` in a script. Dynamic import cannot be trapped like a global: Node
 * rejects it with an error object of the host's realm, whose constructor leads back to the host's `Function`.
 * The sandbox refuses code generation from strings, so what the source text shows is all the program can do,
 * and rejecting these forms before the program runs closes that door.
 */
export function forbiddenSyntaxIn(script: string): string | undefined {
  const source = ts.createSourceFile('program.js', script, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found = 'import()';
    else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) found = 'import.meta';
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
