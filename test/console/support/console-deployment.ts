import { parse as parseYaml } from 'yaml';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { tokensFileYaml } from '../../support/auth-fixture.js';
import { canary } from '../../support/canaries.js';
import { docsPolicyExample, ENTERPRISE_PLUGIN_PATH, vendorEnv } from '../../support/enterprise-fixture.js';
import { leakAudit } from '../../support/leak-audit/leak-audit.js';
import { freePort } from '../../support/free-port.js';
import { sharedRedisUrl, uniqueNamespace } from '../../support/redis.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';
import { API_AUDIENCE, LoopbackProvider } from './loopback-provider.js';

/**
 * Who takes part: agents' owners (a developer, a release engineer, who alone may trigger production
 * pipelines), an approver who also runs an agent, and someone in no group.
 */
export const PEOPLE = {
  alice: ['developers'],
  rene: ['developers', 'release-engineers'],
  olga: ['approvers', 'developers'],
  dave: [],
} as const satisfies Record<string, readonly string[]>;
export type Person = keyof typeof PEOPLE;
export const APPROVERS = 'approvers';

export type StoreKind = 'sqlite' | 'redis';

export interface ConsoleDeploymentOptions {
  store: StoreKind;
  auth?: 'tokens' | 'oidc';
  env?: Record<string, string>;
  /** A second server process on the same store and files (a replica). */
  replica?: boolean;
  /** The policy document; default: the worked example of docs/policy.md. */
  policy?: string;
  /**
   * Which vendor plugins serve: the fixture Jira and CircleCI the worked example is written for (default), or the
   * real CircleCI plugin (its typed tools), on the same CircleCI mock with the same credential label and environment.
   */
  vendors?: 'fixtures' | 'circleci';
}

/**
 * A deployment as an operator lays it out, with the console on: the built server (dist/cli.js) over
 * Streamable HTTP, the policy of docs/policy.md, an audit log, a shared SQLite or Redis store, the fixture
 * Jira and CircleCI on loopback mocks, and each person's bearer token (or, with oidc, a loopback provider).
 */
export class ConsoleDeployment {
  private readonly clients = new Map<Person, Client>();

  private constructor(
    readonly dir: string,
    readonly env: Record<string, string>,
    readonly servers: HttpServerProcess[],
    readonly jira: MockUpstream,
    readonly circleci: MockUpstream,
    readonly tokens: Record<Person, string>,
    readonly provider: LoopbackProvider | undefined,
    /** With oidc, each person's groups as the provider answers them now: a test may change them. */
    readonly accounts: Record<string, readonly string[]>,
  ) {}

  static async start(options: ConsoleDeploymentOptions): Promise<ConsoleDeployment> {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-console-'));
    const jira = await MockUpstream.start();
    const circleci = await MockUpstream.start();
    jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
    jira.on('GET', '/rest/api/3/issue/:key', (r) => ({ body: { key: r.params.key, fields: { summary: 'Flaky deploy step' } } }));
    circleci.on('POST', '/api/v2/project/gh/acme/app/pipeline', {
      status: 201,
      body: { id: '6a3e1c2b-0000-4c43-9457-de07e2029e7b', state: 'pending', number: 43 },
    });
    const realCircleci = options.vendors === 'circleci';
    writeFileSync(join(dir, 'mcp-devtools.config.json'), JSON.stringify({ plugins: [realCircleci ? 'circleci' : ENTERPRISE_PLUGIN_PATH] }));
    writeFileSync(join(dir, 'policy.yaml'), options.policy ?? docsPolicyExample());
    const store: Record<string, string> =
      options.store === 'sqlite'
        ? { MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}` }
        : { MCP_STORE_URL: await sharedRedisUrl(), MCP_STORE_NAMESPACE: uniqueNamespace('console') };
    const port = await freePort();
    const env: Record<string, string> = {
      ...(realCircleci
        ? {
            CIRCLECI_BASE_URL: circleci.url,
            CIRCLECI_TOKEN: canary('CCIPAT_'),
            CIRCLECI_CREDENTIAL_LABEL: 'circleci-deployer',
            CIRCLECI_ENVIRONMENT: 'production',
          }
        : vendorEnv(jira.url, circleci.url)),
      ...store,
      MCP_POLICY_FILE: join(dir, 'policy.yaml'),
      MCP_AUDIT_LOG: join(dir, 'audit.jsonl'),
      MCP_CONSOLE: 'true',
      MCP_APPROVER_GROUPS: APPROVERS,
      ...options.env,
    };
    const tokens = {} as Record<Person, string>;
    let provider: LoopbackProvider | undefined;
    const accounts: Record<string, readonly string[]> = { ...PEOPLE };
    if (options.auth === 'oidc') {
      const secret = canary('console-client-secret-');
      provider = await LoopbackProvider.start(
        { clientId: 'mcp-console', clientSecret: secret, redirectUri: `http://127.0.0.1:${port}/console/callback` },
        accounts,
      );
      for (const person of Object.keys(PEOPLE) as Person[]) tokens[person] = await provider.accessToken(person, PEOPLE[person]);
      leakAudit.addCanaries(Object.values(tokens));
      Object.assign(env, {
        MCP_AUTH_MODE: 'oidc',
        MCP_OIDC_ISSUER: provider.issuer,
        // The provider is on loopback: allowed past the egress guard as an operator allows an in-house one.
        MCP_EGRESS_ALLOW: [env.MCP_EGRESS_ALLOW, new URL(provider.issuer).host].filter(Boolean).join(','),
        MCP_OIDC_AUDIENCE: API_AUDIENCE,
        MCP_CONSOLE_OIDC_CLIENT_ID: 'mcp-console',
        MCP_CONSOLE_OIDC_CLIENT_SECRET: secret,
        MCP_CONSOLE_OIDC_SCOPES: 'openid groups',
        MCP_CONSOLE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      });
    } else {
      for (const person of Object.keys(PEOPLE) as Person[]) tokens[person] = canary(`tok-${person}-`);
      writeFileSync(
        join(dir, 'tokens.yaml'),
        tokensFileYaml((Object.keys(PEOPLE) as Person[]).map((p) => ({ token: tokens[p], subject: p, groups: PEOPLE[p] }))),
      );
      Object.assign(env, { MCP_AUTH_MODE: 'tokens', MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml') });
    }
    leakAudit.watchPath(dir);
    // Replicas share the audit log's volume, each writing its own chain of it (MCP_AUDIT_WRITER).
    const first = options.replica ? { ...env, MCP_AUDIT_WRITER: 'r1' } : env;
    const servers = [await startHttpServer({ cwd: dir, env: first, args: ['--port', String(port)] })];
    if (options.replica) servers.push(await startHttpServer({ cwd: dir, env: { ...env, MCP_AUDIT_WRITER: 'r2' } }));
    return new ConsoleDeployment(dir, env, servers, jira, circleci, tokens, provider, accounts);
  }

  /** The first server's origin, http://127.0.0.1:PORT. */
  get base(): string {
    return this.baseOf(0);
  }

  baseOf(replica: number): string {
    return this.servers[replica]!.url.replace(/\/mcp$/, '');
  }

  /** The person's agent: the official SDK client over Streamable HTTP with their bearer token. */
  async agent(person: Person): Promise<Client> {
    let client = this.clients.get(person);
    if (client === undefined) this.clients.set(person, (client = await connectHttp(this.servers[0]!.url, this.tokens[person])));
    return client;
  }

  async call(person: Person, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = (await (await this.agent(person)).callTool({ name: tool, arguments: args })) as CallToolResult;
    leakAudit.result(tool, result);
    return result;
  }

  async close(): Promise<void> {
    for (const client of this.clients.values()) await client.close().catch(() => {});
    for (const [i, server] of this.servers.entries()) {
      await server.stop();
      leakAudit.transcript(`console server ${i} stderr`, server.stderr.join('\n'));
    }
    await this.provider?.close();
    await this.jira.close();
    await this.circleci.close();
  }
}

/** The approval id and text of a held call's result. */
export function heldApproval(result: CallToolResult): string {
  const id = (result._meta?.decision as { approvalId?: string } | undefined)?.approvalId;
  if (result._meta?.code !== 'approval_required' || id === undefined) throw new Error(`the call was not held: ${JSON.stringify(result)}`);
  return id;
}

export function textOf(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/** How many rules the policy of docs/policy.md has: what the console's policy page must list. */
export function docsPolicyRuleCount(): number {
  return (parseYaml(docsPolicyExample()) as { rules: unknown[] }).rules.length;
}
