// Bundles the CLI and the public plugin API into dist/, then the type declarations of the public entry points
// (one .d.ts per entry). Dependencies stay external (installed with the package).
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

const isExternal = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !/^[A-Za-z]:[\\/]/.test(id);

/** The public entry points: `mcp-devtools/plugin` and `mcp-devtools/testing` (package.json `exports`). */
const PUBLIC = {
  plugin: 'core/public/plugin.ts',
  testing: 'core/public/testing.ts',
};

export default [
  {
    input: {
      cli: 'server/cli.ts',
      ...PUBLIC,
    },
    external: isExternal,
    output: {
      dir: 'dist',
      format: 'es',
      sourcemap: true,
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
    plugins: [
      typescript({
        tsconfig: './tsconfig.json',
        include: ['core/**/*.ts', 'plugins/**/*.ts', 'server/**/*.ts'],
        exclude: ['test/**', 'examples/**', 'build/**', 'dist/**'],
        compilerOptions: { outDir: 'dist', rootDir: '.', declaration: false },
        noEmitOnError: true,
      }),
    ],
    onwarn(warning, warn) {
      // Type errors must fail the build, not scroll past as warnings.
      if (warning.plugin === 'typescript') throw new Error(warning.message);
      warn(warning);
    },
  },
  {
    input: PUBLIC,
    external: isExternal,
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: '[name].d.ts',
      chunkFileNames: 'chunks/[name]-[hash].d.ts',
    },
    plugins: [dts({ tsconfig: './tsconfig.json' })],
  },
];
