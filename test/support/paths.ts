import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run compiled from build/test/...). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The bundled CLI that end-to-end tests spawn: `npm test` builds it first. */
export const CLI_PATH = resolve(REPO_ROOT, 'dist/cli.js');
/** Committed vendor example responses (copies of the public examples; CI has nothing outside the clone). */
export const FIXTURES = resolve(REPO_ROOT, 'test/fixtures');
