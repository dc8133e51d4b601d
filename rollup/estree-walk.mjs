// Walking an ESTree (rollup's `this.parse`, or acorn's), for the build steps that rewrite the SDK's schemas
// (lazy-sdk-schemas.mjs, lazy-core-schemas.mjs) and the one that makes the start-up code ASCII (ascii-source.mjs).

/**
 * Calls `visit(node, parent)` for every node under `node`, parents before their children, and `leave(node)`
 * once a node's children are done.
 */
export function walk(node, parent, visit, leave) {
  if (!node || typeof node.type !== 'string') return;
  visit(node, parent);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent' || key === 'scope') continue;
    if (Array.isArray(value)) for (const item of value) walk(item, node, visit, leave);
    else if (value && typeof value.type === 'string') walk(value, node, visit, leave);
  }
  leave?.(node);
}

/** Whether an identifier declares a name where it stands (a variable, a parameter, a function name) rather than reading one. */
export function isBinding(node, parent) {
  switch (parent?.type) {
    case 'VariableDeclarator':
      return parent.id === node;
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return parent.params.includes(node) || parent.id === node;
    case 'CatchClause':
      return parent.param === node;
    case 'AssignmentPattern':
      return parent.left === node;
    case 'ArrayPattern':
    case 'RestElement':
      return true;
    default:
      return false;
  }
}
