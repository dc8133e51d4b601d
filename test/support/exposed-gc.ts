/** V8's `gc()`: mocha runs with `--expose-gc` (package.json), so a test can collect; one that needs it fails without it. */
export function exposedGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') throw new Error('V8 gave no gc() in this process: run mocha with --expose-gc (package.json does)');
  return gc;
}
