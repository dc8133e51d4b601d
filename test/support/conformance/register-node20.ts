import * as fs from 'node:fs';
import { register } from 'node:module';

/**
 * Loaded with `node --import` before the MCP conformance suite, which imports `fs.globSync` (Node 22+) at start-up
 * though only its report command calls it. On Node 20 the import would fail; this points it at a shim.
 */
if (typeof (fs as { globSync?: unknown }).globSync !== 'function') register(new URL('./fs-hooks.js', import.meta.url));
