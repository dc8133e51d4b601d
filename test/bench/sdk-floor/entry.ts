// As our CLI starts: Node's compile cache first (from 22.1 on, the same function), then the server's code.
import { compileCacheFolder } from '../../../server/cli/compile-cache.js';

compileCacheFolder();
await import('./server.js');
