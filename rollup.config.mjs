// Bundles the CLI and the public plugin API into dist/. Dependencies stay external (installed with the package).
import typescript from '@rollup/plugin-typescript';

const isExternal = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !/^[A-Za-z]:[\\/]/.test(id);

export default {
  input: {
    cli: 'server/cli.ts',
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
};
