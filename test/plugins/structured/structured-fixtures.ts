import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_PLUGIN_PATH } from '../../support/fixture-plugin.js';
import { FIXTURES } from '../../support/paths.js';

const here = dirname(fileURLToPath(import.meta.url));
export const STRUCTURED_FIXTURE_PATH = resolve(here, '../../fixtures/plugins/fixture-structured.js');
export const FAULTY_FIXTURE_PATH = resolve(here, '../../fixtures/plugins/fixture-faulty.js');

/** A config file loading the three fixture plugins (and every cross-cutting built-in unless disabled). */
export function structuredFixtureConfig(extra: Record<string, unknown> = {}): { content: string } {
  return { content: JSON.stringify({ plugins: [FIXTURE_PLUGIN_PATH, STRUCTURED_FIXTURE_PATH, FAULTY_FIXTURE_PATH], ...extra }) };
}

/** The same config written to a folder (for servers spawned as processes); returns the folder. */
export function writeStructuredFixtureConfig(dir: string, extra: Record<string, unknown> = {}): string {
  writeFileSync(join(dir, 'mcp-devtools.config.json'), structuredFixtureConfig(extra).content);
  return dir;
}

/** A real GitHub payload from the shared public fixtures. */
export function githubFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, 'github', `${name}.json`), 'utf8')) as Record<string, unknown>;
}

/** GitHub's Link header for page `page` of `last`, as the API sends it. */
export function githubLink(base: string, page: number, last: number): string {
  const url = (p: number): string => `<${base}/repos/octo-org/hello/actions/runs?per_page=30&page=${p}>`;
  const parts: string[] = [];
  if (page < last) parts.push(`${url(page + 1)}; rel="next"`, `${url(last)}; rel="last"`);
  if (page > 1) parts.push(`${url(1)}; rel="first"`, `${url(page - 1)}; rel="prev"`);
  return parts.join(', ');
}
