import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The example's tests run the repository's server (dist/cli.js) and reuse its compiled test kit (build/: the
 * vendor mock, fixtures, the faulty fixture plugin). Both come from the root's `npm test` (or `npm run build &&
 * npm run build:tests`); say so plainly when they are missing rather than fail on a module path.
 */
function built(specifier: string): string {
  const path = fileURLToPath(import.meta.resolve(specifier));
  if (!existsSync(path)) throw new Error(`${path} is missing: run "npm run build && npm run build:tests" at the repository root first.`);
  return path;
}

built('mcp-devtools/dist/cli.js');
/** A plugin with a tool that is always refused by "policy", and one that advertises a schema but has no value. */
export const FAULTY_PLUGIN_PATH = built('mcp-devtools/build/test/fixtures/plugins/fixture-faulty.js');
