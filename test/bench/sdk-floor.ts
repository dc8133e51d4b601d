import { join } from 'node:path';
import commonjsImport from '@rollup/plugin-commonjs';
import jsonImport from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';

/**
 * These plugins' declarations are CommonJS-shaped, so under NodeNext their default import is typed as the module
 * holding the plugin; at run time Node loads their ES build, whose default export is the plugin itself.
 */
const pluginOf = <T extends { default: unknown }>(imported: T): T['default'] => ((imported as { default?: T['default'] }).default ?? imported) as T['default'];
const commonjs = pluginOf(commonjsImport);
const json = pluginOf(jsonImport);

/**
 * Bundles the bare SDK server (sdk-floor/) as dist/cli.js is bundled (dependencies in, one chunk for what starts,
 * the entry enabling the compile cache before it loads), into `folder`; returns the entry's path. Its start-up is
 * the floor the bench shows beside ours and the baseline's.
 */
export async function bundleSdkFloor(folder: string): Promise<string> {
  const bundle = await rollup({
    input: join(import.meta.dirname, 'sdk-floor/entry.js'),
    external: (id) => id.startsWith('node:'),
    plugins: [nodeResolve({ preferBuiltins: true, exportConditions: ['node', 'import', 'default'] }), commonjs({ ignoreDynamicRequires: true }), json()],
    // Only the SDK's and zod's own circular imports: nothing of ours to act on.
    onwarn: () => undefined,
  });
  try {
    await bundle.write({ dir: folder, format: 'es', entryFileNames: 'sdk-floor.js', chunkFileNames: 'sdk-floor-[name].js' });
  } finally {
    await bundle.close();
  }
  return join(folder, 'sdk-floor.js');
}
