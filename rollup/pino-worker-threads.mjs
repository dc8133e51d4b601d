// pino reads node:worker_threads as it is loaded: its tools module for one flag (`isMainThread`, read only when
// it makes an asynchronous file writer, to flush it at exit), and thread-stream, its transports' worker, for
// the Worker class (read only when a transport starts). The server's log writer is synchronous and starts no
// transport (core/logging/logger.ts), so neither is ever read, but loading worker_threads cost every start
// about 4 ms. These read it when first needed instead, through the lazy `require` of the built-in that the
// bundle gives them (requireBuiltins in rollup.config.mjs). If either source no longer reads as expected, the
// build fails, never the server.
const REWRITES = [
  {
    file: /\/node_modules\/pino\/lib\/tools\.js$/,
    replace: [
      ["const { isMainThread } = require('worker_threads')\n", "const workerThreads = require('worker_threads')\n"],
      ['if (!opts.sync && isMainThread) {', 'if (!opts.sync && workerThreads.isMainThread) {'],
    ],
  },
  {
    file: /\/node_modules\/thread-stream\/index\.js$/,
    replace: [
      ["const { Worker } = require('worker_threads')\n", "const workerThreads = require('worker_threads')\n"],
      ['const worker = new Worker(toExecute, {', 'const worker = new workerThreads.Worker(toExecute, {'],
    ],
  },
];

export const pinoWorkerThreads = {
  name: 'pino-worker-threads',
  transform(code, id) {
    const rewrite = REWRITES.find(({ file }) => file.test(id));
    if (!rewrite) return null;
    let rewritten = code;
    for (const [before, after] of rewrite.replace) {
      if (rewritten.split(before).length !== 2) throw new Error(`pino-worker-threads: ${id} no longer reads: ${before.trim()}`);
      rewritten = rewritten.replace(before, after);
    }
    if (/\b(isMainThread|Worker)\b/.test(rewritten.replaceAll(/workerThreads\.(isMainThread|Worker)\b/g, '').replaceAll(/\/\/.*|\/\*[\s\S]*?\*\//g, ''))) {
      throw new Error(`pino-worker-threads: ${id} reads the worker_threads binding elsewhere too`);
    }
    return { code: rewritten, map: null };
  },
};
