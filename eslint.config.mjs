// ESLint's configuration lives with the test package that installs ESLint: test/lint/eslint-config.mjs.
export { default } from './test/lint/eslint-config.mjs';
