import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { ERROR_CATALOGUE } from '../../core/errors/catalogue.js';
import { VERSION } from '../../core/version.js';
import { REPO_ROOT } from '../support/paths.js';
import { allSettings, renderErrorCatalogue, renderSettingsReference } from '../support/reference-docs.js';

const read = (file: string): string => readFileSync(resolve(REPO_ROOT, file), 'utf8');

describe('reference documentation stays in step with the code (npm run docs:reference regenerates it)', () => {
  it('docs/errors.md lists every error code of the catalogue, as generated', () => {
    const doc = read('docs/errors.md');
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(doc, code).to.contain(`| \`${code}\` |`);
    expect(doc).to.contain(renderErrorCatalogue());
  });

  it('docs/configuration.md documents every setting the server reads, as generated', async () => {
    const doc = read('docs/configuration.md');
    for (const { key } of await allSettings()) expect(doc, key).to.contain(`| \`${key}\` |`);
    expect(doc).to.contain(await renderSettingsReference());
  });

  it('the version shown to clients is the package version', () => {
    expect(VERSION).to.equal((JSON.parse(read('package.json')) as { version: string }).version);
  });
});
