import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run compiled from build/test/...). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * The bundle the tests run: `npm test` builds it into build/dist (`npm run build:test-bundle`, the same rollup
 * configuration as `npm run build`), never into dist/, which a server started from the clone may be serving.
 */
export const BUNDLE_DIR = resolve(REPO_ROOT, 'build/dist');
/** The bundled CLI that end-to-end tests spawn: `npm test` builds it first. */
export const CLI_PATH = join(BUNDLE_DIR, 'cli.js');
/** Committed vendor example responses (copies of the public examples; CI has nothing outside the clone). */
export const FIXTURES = resolve(REPO_ROOT, 'test/fixtures');
/** Where the test package (test/package.json: reference servers, conformance suites, the test runner) is installed. */
export const TEST_MODULES = resolve(REPO_ROOT, 'test/node_modules');
