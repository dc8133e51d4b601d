import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Principal } from '../../core/pipeline/principal.js';
import { REPO_ROOT } from './paths.js';

/** The compiled fixture vendors shaped like Jira and CircleCI, with write tools. */
export const ENTERPRISE_PLUGIN_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins/fixture-enterprise.js');

/** A config file loading only those fixture vendors (and the cross-cutting built-ins). */
export function enterpriseConfig(): { content: string } {
  return { content: JSON.stringify({ plugins: [ENTERPRISE_PLUGIN_PATH] }) };
}

/** The worked example of docs/policy.md, exactly as published. */
export function docsPolicyExample(): string {
  const doc = readFileSync(join(REPO_ROOT, 'docs/policy.md'), 'utf8');
  const start = doc.indexOf('## Worked example');
  const match = /```yaml\n([\s\S]*?)```/.exec(doc.slice(start));
  if (start < 0 || match === null) throw new Error('docs/policy.md has no yaml block under "## Worked example"');
  return match[1]!;
}

/** Writes a file in a fresh temporary folder and returns its path. */
export function tempFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-ent-')), name);
  writeFileSync(path, content);
  return path;
}

/** The example company's people: a developer, a contractor, a release engineer, and someone in no group. */
export const PEOPLE = {
  alice: { subject: 'alice', groups: ['developers'], via: 'tokens' },
  carol: { subject: 'carol', groups: ['contractors'], via: 'tokens' },
  rene: { subject: 'rene', groups: ['developers', 'release-engineers'], via: 'tokens' },
  dave: { subject: 'dave', groups: [], via: 'tokens' },
} satisfies Record<string, Principal>;

/** Settings pointing the fixture vendors at loopback mocks, the CircleCI credential marked production. */
export function vendorEnv(jiraUrl: string, circleciUrl: string): Record<string, string> {
  return {
    FX_JIRA_BASE_URL: jiraUrl,
    FX_JIRA_TOKEN: 'jira-canary-secret-7f3a',
    FX_JIRA_CREDENTIAL_LABEL: 'jira-bot',
    FX_JIRA_ENVIRONMENT: 'production',
    FX_CIRCLECI_BASE_URL: circleciUrl,
    FX_CIRCLECI_TOKEN: 'circleci-canary-secret-91bc',
    FX_CIRCLECI_CREDENTIAL_LABEL: 'circleci-deployer',
    FX_CIRCLECI_ENVIRONMENT: 'production',
  };
}
