// ESLint (flat config): the recommended JavaScript and typescript-eslint rules over the TypeScript sources.
// Run by `npm run lint` (with Prettier's check) and by CI. ESLint and its plugins belong to the test package
// (test/package.json), so they are imported from here, where test/node_modules is found; the repository's
// eslint.config.mjs hands this on, and its patterns stay relative to the repository root.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'examples/**', 'coverage/**', 'reports/**', '.stryker-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // `_name` marks a parameter or binding kept on purpose (an interface's signature, a destructured drop).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A server created before the object its handler calls: declared first, assigned once, read only later.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // CommonJS preloads (`node --require`): Node's globals, and require() is how they load modules.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', URL: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
