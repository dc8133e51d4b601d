import { createRequire } from 'node:module';

type NodeCrypto = typeof import('node:crypto');

let loaded: NodeCrypto | undefined;

/**
 * node:crypto, loaded by its first caller. Node builds the module's whole API when it loads it (ciphers, keys,
 * WebCrypto: about 12 ms of CPU on Node 24), and a static import would do that at every start although a server
 * needs none of it to answer its first tools/list: hashes, random ids and MACs are made by calls. The modules a
 * server loads to start reach it through here (test/e2e/startup-modules.test.ts checks that a start does not
 * load it); modules loaded only later may import it as usual.
 */
export function nodeCrypto(): NodeCrypto {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as NodeCrypto);
}
