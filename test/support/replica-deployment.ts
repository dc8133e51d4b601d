import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEnterpriseFiles } from './enterprise-fixture.js';

/**
 * A company deployment of the real vendor plugins, as an operator lays it out for several replicas: one tokens
 * file and one policy (the worked example of docs/policy.md) that every replica reads, two approvers' own tokens
 * (MCP_APPROVER_GROUPS=approvers), an admin token that reads approvals, structured output on, and the vendors'
 * credentials labelled as that example expects.
 */

/** The callers: a release engineer (the one who may use the production CircleCI token), a developer, a contractor. */
export const CALLERS = {
  rene: { token: 'tok-rene-replicas-4b1e07c2', groups: ['developers', 'release-engineers'] },
  alice: { token: 'tok-alice-replicas-9d3f51a8', groups: ['developers'] },
  carol: { token: 'tok-carol-replicas-e60c2b94', groups: ['contractors'] },
};
export type Caller = keyof typeof CALLERS;

export const ADMIN_TOKEN = 'admin-replicas-0f8e2d7c41';

/** The approvers' own bearer tokens: they decide held calls, and run no agent. */
export const APPROVER_TOKENS = { olga: 'tok-olga-replicas-7a2c90e1', paul: 'tok-paul-replicas-31f6d8b4' };
export type Approver = keyof typeof APPROVER_TOKENS;

/** Every replica loads these built-in vendor plugins (and every cross-cutting one). */
export const REPLICA_PLUGINS = ['github', 'circleci', 'jira'];

/** Credentials and labels of the vendor plugins, pointed at loopback mocks. Secrets are canaries a test can look for. */
export function vendorCredentials(urls: { github: string; circleci: string; jira: string }): Record<string, string> {
  return {
    GITHUB_API_URL: urls.github,
    GITHUB_TOKEN: 'ghp_replicaCanarySecret0000000000000000',
    GITHUB_CREDENTIAL_LABEL: 'actions-reader',
    CIRCLECI_BASE_URL: urls.circleci,
    CIRCLECI_TOKEN: 'circleci-replica-canary-secret',
    CIRCLECI_CREDENTIAL_LABEL: 'circleci-deployer',
    CIRCLECI_ENVIRONMENT: 'production',
    JIRA_BASE_URL: urls.jira,
    ATLASSIAN_USER_EMAIL: 'jira-bot@acme.example',
    ATLASSIAN_API_TOKEN: 'atlassian-replica-canary-secret',
    JIRA_CREDENTIAL_LABEL: 'jira-bot',
    JIRA_ENVIRONMENT: 'production',
  };
}

export interface Deployment {
  /** The folder holding the tokens file and the policy. */
  dir: string;
  /** Settings every replica gets (besides the store and the vendors). */
  env: Record<string, string>;
  /** Bearer token by caller, for the clients. */
  tokens: Record<Caller, string>;
}

/** Writes the tokens file and the policy to a fresh folder; returns the settings that name them. */
export function writeDeployment(): Deployment {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-deployment-'));
  const callers = Object.entries(CALLERS) as Array<[Caller, (typeof CALLERS)[Caller]]>;
  return {
    dir,
    env: {
      ...writeEnterpriseFiles(
        dir,
        [
          ...callers.map(([subject, c]) => ({ subject, ...c })),
          ...Object.entries(APPROVER_TOKENS).map(([subject, token]) => ({ subject, token, groups: ['approvers'] })),
        ],
        ADMIN_TOKEN,
      ),
      MCP_APPROVER_GROUPS: 'approvers',
      MCP_STRUCTURED_OUTPUT: 'true',
      // CircleCI sends no Cache-Control: entries live this long, well beyond a test's restarts.
      HTTP_CACHE_DEFAULT_TTL_SECONDS: '3600',
    },
    tokens: Object.fromEntries(callers.map(([name, c]) => [name, c.token])) as Record<Caller, string>,
  };
}

/** Grants or rejects an approval through a replica's admin endpoint with the approver's own token, as their tooling would. */
export async function decideOnAdminEndpoint(
  origin: string,
  approvalId: string,
  verdict: 'grant' | 'reject',
  by: Approver = 'olga',
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}/admin/approvals/${approvalId}/${verdict}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${APPROVER_TOKENS[by]}`, 'content-type': 'application/json' },
    // A rejection says why (the caller is told it).
    body: JSON.stringify(verdict === 'reject' ? { reason: `${by} says no.` } : {}),
  });
  return { status: response.status, body: await response.json() };
}
