import { expect } from 'chai';
import { runCli } from '../support/run-cli.js';
import { startHttpServer } from '../support/sdk-client.js';
import { ConsoleClient } from './support/console-client.js';
import { ConsoleDeployment, type StoreKind } from './support/console-deployment.js';

for (const store of ['sqlite', 'redis'] as const satisfies readonly StoreKind[]) {
  describe(`approvals console sessions across two replicas (${store} store)`, function () {
    this.timeout(60_000);
    let d: ConsoleDeployment;

    before(async () => {
      d = await ConsoleDeployment.start({ store, replica: true, env: { MCP_CONSOLE_VIEWER_GROUPS: 'developers' } });
    });
    after(async () => d?.close());

    it('serves a session made on one replica from the other, and a sign-out on either ends it on both', async () => {
      const onFirst = await ConsoleClient.signIn(d.baseOf(0), d.tokens.olga);
      const onSecond = new ConsoleClient(d.baseOf(1)).withCookie('mcp_console', onFirst.session!);
      const page = await onSecond.get('/console');
      expect(page.status).to.equal(200);
      expect(page.text).to.include('<span class="subject">olga</span> <span class="role">approver</span>');
      // The CSRF token belongs to the session, so a form from one replica's page is accepted by the other.
      const out = await onSecond.post('/console/signout', {}, { csrf: await onFirst.csrf() });
      expect(out.status).to.equal(303);
      expect((await onFirst.get('/console')).headers.get('location')).to.equal('/console/signin');
    });

    it('lets a decision made on one replica reach a call retried through the other', async () => {
      const held = await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/REP-1' });
      const id = (held._meta?.decision as { approvalId: string }).approvalId;
      const olga = await ConsoleClient.signIn(d.baseOf(1), d.tokens.olga);
      expect((await olga.get('/console')).text).to.include(`id="${id}"`);
      expect(
        (await olga.post(`/console/approvals/${id}/grant`, { confirmed: 'yes', reason: 'Cleared on replica two.' }, { csrf: await olga.csrf() })).status,
      ).to.equal(303);
      expect((await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/REP-1' })).isError).to.equal(undefined);
      // The decided tab of the other replica reads both chains: the decision (r2's) and the run it let through (r1's).
      const alice = await ConsoleClient.signIn(d.baseOf(0), d.tokens.alice);
      const row = (await alice.get('/console/decided')).text.match(new RegExp(`<tr id="${id}">.*?</tr>`))![0];
      expect(row).to.include('<span class="status granted">granted</span> by <strong>olga</strong>').and.to.include('Cleared on replica two.');
      expect(row).to.include('<span class="outcome ok">ran</span>');
    });

    it('keeps out principals in neither MCP_CONSOLE_VIEWER_GROUPS nor MCP_APPROVER_GROUPS', async () => {
      const dave = new ConsoleClient(d.baseOf(0));
      const answer = await dave.submitToken(d.tokens.dave);
      expect(answer.status).to.equal(403);
      expect(answer.text).to.include('dave is not allowed in this console');
      expect(dave.session).to.equal(undefined);
    });
  });
}

describe('approvals console settings', function () {
  this.timeout(30_000);

  it('is off by default: /console is not served', async () => {
    const server = await startHttpServer();
    try {
      const answer = await fetch(server.url.replace(/\/mcp$/, '/console'));
      expect(answer.status).to.equal(404);
      expect(await answer.text()).to.equal('{"error":"not found: MCP is served at /mcp"}');
    } finally {
      await server.stop();
    }
  });

  for (const [what, env, message] of [
    ['authentication off', { MCP_CONSOLE: 'true' }, 'MCP_CONSOLE=true needs MCP_AUTH_MODE=tokens or oidc'],
    [
      'OIDC without a console client',
      {
        MCP_CONSOLE: 'true',
        MCP_AUTH_MODE: 'oidc',
        MCP_OIDC_ISSUER: 'https://id.acme.example',
        MCP_OIDC_AUDIENCE: 'mcp',
        MCP_OIDC_JWKS_URL: 'https://id.acme.example/keys',
      },
      'needs MCP_CONSOLE_OIDC_CLIENT_ID',
    ],
    [
      'OIDC without a public URL',
      {
        MCP_CONSOLE: 'true',
        MCP_AUTH_MODE: 'oidc',
        MCP_OIDC_ISSUER: 'https://id.acme.example',
        MCP_OIDC_AUDIENCE: 'mcp',
        MCP_OIDC_JWKS_URL: 'https://id.acme.example/keys',
        MCP_CONSOLE_OIDC_CLIENT_ID: 'console',
      },
      'needs MCP_CONSOLE_PUBLIC_URL',
    ],
    [
      'a plain-http public URL',
      {
        MCP_CONSOLE: 'true',
        MCP_AUTH_MODE: 'oidc',
        MCP_OIDC_ISSUER: 'https://id.acme.example',
        MCP_OIDC_AUDIENCE: 'mcp',
        MCP_OIDC_JWKS_URL: 'https://id.acme.example/keys',
        MCP_CONSOLE_OIDC_CLIENT_ID: 'console',
        MCP_CONSOLE_PUBLIC_URL: 'http://mcp.acme.example',
      },
      'MCP_CONSOLE_PUBLIC_URL=http://mcp.acme.example must be https://',
    ],
  ] as const) {
    it(`refuses to start with ${what}, naming the setting`, async () => {
      const run = await runCli(['--transport', 'http', '--port', '0'], { env: { ...env } });
      expect(run.code).to.equal(1);
      expect(run.stderr).to.include(message);
    });
  }
});
