#!/usr/bin/env node
// The entry point. Before the server's code loads: Node's compile cache where Node has it (22.1 and later), so
// the bundle is compiled once per build and Node version rather than at every start; then the decorator
// metadata polyfill, once, before anything uses tsyringe. Both belong to the command, not to the kernel: a
// process that embeds a kernel keeps its own settings.
import { compileCacheFolder } from './cli/compile-cache.js';

compileCacheFolder();
await import('./cli/reflect-metadata.js');
const { main } = await import('./cli/main.js');
await main(process.argv);
