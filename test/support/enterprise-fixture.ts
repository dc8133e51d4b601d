import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Principal } from '../../core/identity/principal.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { tokensFileYaml } from './auth-fixture.js';
import { REPO_ROOT } from './paths.js';
import { startTestKernel, type TestKernel } from './test-kernel.js';

/** The compiled fixture vendors shaped like Jira and CircleCI, with write tools. */
export const ENTERPRISE_PLUGIN_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins/fixture-enterprise.js');

/** The worked example of docs/policy.md, exactly as published. */
export function docsPolicyExample(): string {
  const doc = readFileSync(join(REPO_ROOT, 'docs/policy.md'), 'utf8');
  const start = doc.indexOf('## Worked example');
  const match = /```yaml\n([\s\S]*?)```/.exec(doc.slice(start));
  if (start < 0 || match === null) throw new Error('docs/policy.md has no yaml block under "## Worked example"');
  return match[1]!;
}

/**
 * An enterprise deployment's files in `dir`, as an operator lays them out: the tokens file of `callers` and the
 * policy of docs/policy.md. Returns the settings that turn on bearer tokens, that policy and the admin endpoint.
 */
export function writeEnterpriseFiles(dir: string, callers: Parameters<typeof tokensFileYaml>[0], adminToken: string): Record<string, string> {
  writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml(callers));
  writeFileSync(join(dir, 'policy.yaml'), docsPolicyExample());
  return {
    MCP_AUTH_MODE: 'tokens',
    MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
    MCP_POLICY_FILE: join(dir, 'policy.yaml'),
    MCP_ADMIN_TOKEN: adminToken,
  };
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

/**
 * The example company's approvers (MCP_APPROVER_GROUPS=approvers, which startEnterpriseKernel sets), as the
 * server authenticates them: they decide held calls and run no agent.
 */
export const APPROVERS = {
  olga: { subject: 'olga', groups: ['approvers'], via: 'tokens' },
  paul: { subject: 'paul', groups: ['approvers'], via: 'tokens' },
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

export interface EnterpriseKernel {
  kernel: TestKernel;
  jira: MockUpstream;
  circleci: MockUpstream;
  /** The policy file the kernel follows (absent without a policy). */
  policyPath?: string;
  close(): Promise<void>;
}

/** A kernel with the fixture vendors on loopback mocks, APPROVERS as its approvers and, unless `policy` is null, a policy file. */
export async function startEnterpriseKernel(
  options: { policy?: string | null; env?: Record<string, string>; clock?: Clock; config?: Record<string, unknown> } = {},
): Promise<EnterpriseKernel> {
  const jira = await MockUpstream.start();
  const circleci = await MockUpstream.start();
  const policy = options.policy === undefined ? docsPolicyExample() : options.policy;
  const policyPath = policy === null ? undefined : tempFile('policy.yaml', policy);
  const kernel = await startTestKernel({
    configFile: { content: JSON.stringify({ plugins: [ENTERPRISE_PLUGIN_PATH], ...options.config }) },
    env: { ...vendorEnv(jira.url, circleci.url), MCP_APPROVER_GROUPS: 'approvers', ...(policyPath ? { MCP_POLICY_FILE: policyPath } : {}), ...options.env },
    clock: options.clock,
  }).catch(async (error: unknown) => {
    await jira.close();
    await circleci.close();
    throw error;
  });
  return {
    kernel,
    jira,
    circleci,
    ...(policyPath ? { policyPath } : {}),
    close: async () => {
      await kernel.close();
      await jira.close();
      await circleci.close();
    },
  };
}

/** Waits until `check` returns true (polling), failing with `what` after `timeoutMs`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.now()): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}
