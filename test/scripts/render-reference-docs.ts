// Regenerates the generated sections of docs/configuration.md and docs/errors.md from the code:
// every setting declared by the core, the server and the built-in plugins, and the error catalogue.
// Run: npm run docs:reference (tests fail when the docs fall behind the code).
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderErrorCatalogue, renderSettingsReference } from '../support/reference-docs.js';
import { REPO_ROOT } from '../support/paths.js';

function replaceBetweenMarkers(file: string, body: string): void {
  const path = resolve(REPO_ROOT, file);
  const text = readFileSync(path, 'utf8');
  const start = '<!-- generated:start -->';
  const end = '<!-- generated:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${file} lacks the generated markers`);
  writeFileSync(path, `${text.slice(0, a + start.length)}\n${body}\n${text.slice(b)}`);
}

replaceBetweenMarkers('docs/configuration.md', await renderSettingsReference());
replaceBetweenMarkers('docs/errors.md', renderErrorCatalogue());
process.stdout.write('docs/configuration.md and docs/errors.md regenerated\n');
