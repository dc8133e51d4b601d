import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { ApprovalStore } from '../../plugins/policy/approvals/approval-store.js';
import type { Decision } from '../../plugins/policy/engine/policy-engine.js';
import { POLICY_TOKENS } from '../../plugins/policy/policy-settings.js';
import { adminEndpoint } from '../support/admin-endpoint.js';
import { TokenAuthenticator } from '../../server/auth/token-authenticator.js';
import { hashToken } from '../../server/auth/token-hash.js';
import { serveHttp } from '../../server/transports/http.js';
import { capturedLogger, tokensFileFolder } from '../support/auth-fixture.js';
import { docsPolicyExample, ENTERPRISE_PLUGIN_PATH, PEOPLE, startEnterpriseKernel, tempFile, vendorEnv } from '../support/enterprise-fixture.js';
import { runCli } from '../support/run-cli.js';

/** What `approvals show` prints of an approval (the confirmation shows the same before it asks). */
async function describedOver(server: string, id: string, env: Record<string, string>): Promise<string> {
  const shown = await runCli(['approvals', 'show', id, '--server', server], { env });
  expect(shown.code, shown.stderr).to.equal(0);
  return shown.stdout;
}

describe('enterprise CLI commands (dist/cli.js)', function () {
  this.timeout(60_000);

  it('auth hash-token prints the SHA-256 of the token on stdin, without its trailing newline', async () => {
    const run = await runCli(['auth', 'hash-token'], { stdin: 'tok-alice-4b1e9c0d\n' });
    expect([run.code, run.stdout]).to.deep.equal([0, `${hashToken('tok-alice-4b1e9c0d')}\n`]);
    for (const stdin of ['', 'two tokens\n']) {
      const bad = await runCli(['auth', 'hash-token'], { stdin });
      expect(bad.code).to.equal(1);
      expect(bad.stderr).to.contain('Pipe exactly one token on stdin');
      expect(bad.stdout).to.equal('');
    }
  });

  it('policy check accepts the worked example and names every problem of a broken document with its line', async () => {
    const good = tempFile('policy.yaml', docsPolicyExample());
    const ok = await runCli(['policy', 'check', good]);
    expect(ok.code).to.equal(0);
    expect(ok.stdout).to.match(/^.*policy\.yaml: valid, 8 rules, version sha256:[0-9a-f]{16}\n$/);
    const bad = tempFile('policy.yaml', 'version: 1\nrules:\n  - id: a\n    effect: alow\n  - id: b\n    effect: deny\n    match: { tool: [x] }\n');
    const failed = await runCli(['policy', 'check', bad]);
    expect(failed.code).to.equal(1);
    expect(failed.stderr.trim().split('\n')).to.deep.equal([
      `${bad} line 4: rules[0].effect: must be one of "allow", "deny", "approval_required", "confirm" (got "alow")`,
      `${bad} line 7: rules[1].match.tool: is not a known key`,
    ]);
    const off = tempFile('policy.yaml', 'version: 1\nrules:\n  - id: d\n    effect: deny\n    except: {}\n');
    const refused = await runCli(['policy', 'check', off]);
    expect([refused.code, refused.stderr.trim()]).to.deep.equal([
      1,
      `${off} line 5: rules[0].except: is empty, so it always holds and the rule would never apply. Give the conditions under which the rule does not apply, or remove except.`,
    ]);
  });

  describe('policy explain', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-explain-'));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: [ENTERPRISE_PLUGIN_PATH] }));
    const env = vendorEnv('https://acme.atlassian.net', 'https://circleci.com');
    const policy = join(cwd, 'policy.yaml');
    writeFileSync(policy, docsPolicyExample());
    const explain = (args: string[]) => runCli(['policy', 'explain', policy, ...args], { cwd, env });

    it('prints the decision and every rule that held or failed', async () => {
      const run = await explain(['--tool', 'jira_post', '--args', '{"path": "/rest/api/3/issue"}', '--subject', 'carol', '--group', 'contractors']);
      expect(run.code, run.stderr).to.equal(0);
      const lines = run.stdout.split('\n');
      expect(lines[0]).to.equal('Decision: deny by rule contractors-read-only: Contractors have read-only access.');
      expect(lines).to.include('Call:     jira_post POST /rest/api/3/issue (writes)');
      expect(lines).to.include('Path:     /rest/api/3/issue (what path rules matched; URL https://acme.atlassian.net/rest/api/3/issue)');
      expect(lines).to.include('Upstream: jira, credential jira-bot at acme.atlassian.net, environment production');
      expect(lines).to.include('      fails  match groups [developers]; the call has [contractors]');
      expect(lines.filter((l) => l.includes('APPLIES')).map((l) => l.replace(/^ +line \d+: /, ''))).to.deep.equal(['contractors-read-only (deny): APPLIES']);
    });

    it('prints the path it matched as servers read it, beside the request as it would be sent', async () => {
      const run = await explain(['--tool', 'jira_get', '--args', '{"path": "/rest/api/3//issue/PLAT-1/"}', '--subject', 'alice', '--json']);
      expect(run.code, run.stderr).to.equal(0);
      const out = JSON.parse(run.stdout) as { call: { path: string }; request: { method: string; path: string; url: string } };
      expect(out.call.path).to.equal('/rest/api/3/issue/PLAT-1');
      expect(out.request).to.deep.equal({ method: 'GET', path: '/rest/api/3//issue/PLAT-1/', url: 'https://acme.atlassian.net/rest/api/3//issue/PLAT-1/' });
    });

    it('decides exactly as the server does, for every kind of outcome', async () => {
      const ent = await startEnterpriseKernel();
      try {
        const cases: Array<[keyof typeof PEOPLE, string, Record<string, unknown>]> = [
          ['carol', 'jira_post', { path: '/rest/api/3/issue' }],
          ['alice', 'jira_put', { path: '/rest/api/3/issue/PLAT-1', body: { fields: { summary: 'x' } } }],
          ['alice', 'jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'SEC' } } } }],
          ['alice', 'jira_delete', { path: '/rest/api/3/issue/PLAT-1' }],
          ['rene', 'circleci_get', { path: '/api/v2/pipeline' }],
          ['alice', 'circleci_get', { path: '/api/v2/pipeline' }],
          ['dave', 'jira_post', { path: '/rest/api/3/project' }],
        ];
        for (const [who, tool, args] of cases) {
          const person = PEOPLE[who];
          const run = await explain([
            '--tool',
            tool,
            '--args',
            JSON.stringify(args),
            '--subject',
            person.subject,
            ...person.groups.flatMap((g) => ['--group', g]),
            '--json',
          ]);
          expect(run.code, run.stderr).to.equal(0);
          const explained = (JSON.parse(run.stdout) as { decision: Decision }).decision;
          for (const method of ['POST', 'PUT', 'DELETE']) ent.jira.on(method, '*', { status: 204 });
          ent.circleci.on('GET', '*', { body: {} });
          const result = (await ent.kernel.call(tool, args, person)) as CallToolResult;
          const served = (result._meta?.decision as Decision | undefined) ?? { effect: 'allow' };
          expect(explained.effect, `${who} ${tool}`).to.equal(served.effect);
          if (served.effect !== 'allow')
            expect({ ...explained, approvalId: undefined, expiresAt: undefined }).to.deep.equal({ ...served, approvalId: undefined, expiresAt: undefined });
        }
      } finally {
        await ent.close();
      }
    });

    it('says when the server would refuse the call before the policy, or has no such tool', async () => {
      const invalid = await explain(['--tool', 'jira_get', '--args', '{"path": "/rest/api/3/../admin"}', '--subject', 'alice']);
      expect(invalid.code).to.equal(1);
      expect(invalid.stderr).to.contain('The server would refuse this call before the policy (invalid_path)');
      // The review's finding: explain agreed with the wrong answer for path parameters Tomcat drops.
      for (const path of ['/rest/api/3/user;x=1/search', '/rest/api/3/x/..;/user/search', '/rest/api/3/issue/x/..;/..;/user']) {
        const run = await explain(['--tool', 'jira_post', '--args', JSON.stringify({ path }), '--subject', 'alice', '--group', 'developers']);
        expect([run.code, run.stdout], path).to.deep.equal([1, '']);
        expect(run.stderr, path)
          .to.contain('The server would refuse this call before the policy (invalid_path)')
          .and.to.contain('it contains ";" (path parameters');
      }
      const unknown = await explain(['--tool', 'jira_archive', '--subject', 'alice']);
      expect(unknown.code).to.equal(1);
      expect(unknown.stderr, unknown.stderr).to.contain(
        'No tool "jira_archive" is loaded. Tools: artifact_read, circleci_get, circleci_post, jira_delete, jira_get, jira_post, jira_put.',
      );
    });
  });

  describe('approvals', () => {
    it('explains that approvals in the memory store are reached through the server', async () => {
      const run = await runCli(['approvals', 'list']);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.contain('MCP_STORE_URL is memory://, so approvals live inside the server process. Pass --server');
    });

    it("lists with the admin token, and grants with the approver's own token, through a running server (--server)", async () => {
      const ent = await startEnterpriseKernel();
      const { logger } = capturedLogger();
      const olga = 'tok-olga-cli-2f81c0';
      const folder = tokensFileFolder('approvals-cli-', [{ token: olga, subject: 'olga', groups: ['approvers'] }]);
      const authenticator = await TokenAuthenticator.open(folder.env.MCP_AUTH_TOKENS_FILE!, logger);
      const approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
      const routes = adminEndpoint(approvals, { adminToken: 'admin-cli-token', metricsToken: '', authenticator, logger });
      const http = await serveHttp(ent.kernel.kernel, { host: '127.0.0.1', port: 0, allowedOrigins: [], authenticator, routes, logger });
      try {
        const held = await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/PLAT-3' }, PEOPLE.alice);
        const { approvalId } = held._meta!.decision as Decision;
        const reader = { MCP_ADMIN_TOKEN: 'admin-cli-token' };
        const env = { MCP_APPROVER_TOKEN: olga };
        const server = http.url.replace(/\/mcp$/, '');
        const list = await runCli(['approvals', 'list', '--server', server], { env: reader });
        expect(list.code, list.stderr).to.equal(0);
        expect(list.stdout).to.contain(`${approvalId}  pending`).and.to.contain('alice [developers] called jira_delete DELETE /rest/api/3/issue/PLAT-3');
        const asAdmin = await runCli(['approvals', 'grant', approvalId!, '--server', server, '--yes'], { env: reader });
        expect([asAdmin.code, asAdmin.stderr]).to.deep.equal([
          1,
          'mcp-devtools: Grant and reject as yourself: set your own token in MCP_APPROVER_TOKEN (or --token-file FILE). MCP_ADMIN_TOKEN never decides.\n',
        ]);
        const unconfirmed = await runCli(['approvals', 'grant', approvalId!, '--server', server], { env });
        expect([unconfirmed.code, unconfirmed.stderr]).to.deep.equal([
          1,
          `${await describedOver(server, approvalId!, env)}\nGrant ${approvalId}? [y/N] mcp-devtools: Nothing was decided: answer y to confirm, or pass --yes.\n`,
        ]);
        // The token from a file works as from the environment; it never goes on the command line.
        const tokenFile = join(folder.dir, 'olga.token');
        writeFileSync(tokenFile, `${olga}\n`, { mode: 0o600 });
        const grant = await runCli(['approvals', 'grant', approvalId!, '--server', server, '--token-file', tokenFile, '--reason', 'PLAT-3 is a duplicate.'], {
          stdin: 'y\n',
        });
        expect(grant.code, grant.stderr).to.equal(0);
        expect(grant.stdout).to.match(new RegExp(`^${approvalId} granted by olga; the caller's next identical call runs once, until `));
        const wrong = await runCli(['approvals', 'list', '--server', server], { env: { MCP_ADMIN_TOKEN: 'guess' } });
        expect(wrong.code).to.equal(1);
        expect(wrong.stderr).to.contain('answered 401');
        ent.jira.on('DELETE', '/rest/api/3/issue/PLAT-3', { status: 204 });
        expect((await ent.kernel.call('jira_delete', { path: '/rest/api/3/issue/PLAT-3' }, PEOPLE.alice)).isError).to.equal(undefined);
      } finally {
        await http.close();
        authenticator.close();
        await ent.close();
      }
    });

    it('says what replaced --by, and that deciding needs a server, before deciding anything', async () => {
      const id = 'apr-4c9e0f0b8a6d2e1f3a5b7c9d';
      const by = await runCli(['approvals', 'grant', id, '--by', 'olga', '--yes', '--server', 'http://127.0.0.1:9']);
      expect([by.code, by.stderr]).to.deep.equal([
        1,
        'mcp-devtools: --by is gone: the server names who decides from their token. Send your own token in MCP_APPROVER_TOKEN (or --token-file FILE), with --server URL.\n',
      ]);
      const store = await runCli(['approvals', 'reject', id, '--reason', 'No.', '--yes'], { env: { MCP_APPROVER_TOKEN: 'tok-x' } });
      expect([store.code, store.stderr]).to.deep.equal([
        1,
        'mcp-devtools: Deciding goes through a running server, which checks who you are, audits the decision and tells the webhook receivers: add --server URL, with your own token in MCP_APPROVER_TOKEN (or --token-file FILE).\n',
      ]);
    });
  });

  it('serve refuses a non-loopback address with authentication off, and tokens mode without a tokens file', async () => {
    const open = await runCli(['serve', '--transport', 'http', '--host', '0.0.0.0', '--port', '0']);
    expect(open.code).to.equal(1);
    expect(open.stderr).to.contain('Refusing to serve HTTP on 0.0.0.0 with MCP_AUTH_MODE=off');
    const noFile = await runCli(['serve', '--transport', 'http', '--port', '0'], { env: { MCP_AUTH_MODE: 'tokens' } });
    expect(noFile.code).to.equal(1);
    expect(noFile.stderr).to.contain('MCP_AUTH_MODE=tokens needs MCP_AUTH_TOKENS_FILE');
  });
});
