import { createRequire } from 'node:module';

// The decorator metadata polyfill, loaded once, before anything uses tsyringe (the CLI imports this module
// first). Required rather than imported: importing a CommonJS package from ES modules makes Node scan its
// whole source for export names first, a few milliseconds of every start-up for a package that exports none.
createRequire(import.meta.url)('reflect-metadata');
