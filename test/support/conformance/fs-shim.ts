// node:fs as the conformance suite imports it, plus the globSync Node 20 lacks (only its report command uses it).
export * from 'node:fs';
export { default } from 'node:fs';

export function globSync(): never {
  throw new Error('fs.globSync needs Node 22; the conformance report command is not used by these tests.');
}
