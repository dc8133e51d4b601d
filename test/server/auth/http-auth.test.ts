import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import type { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { POLICY_TOKENS } from '../../../plugins/policy/policy-settings.js';
import { adminEndpoint } from '../../support/admin-endpoint.js';
import { TokenAuthenticator } from '../../../server/auth/token-authenticator.js';
import { hashToken } from '../../../server/auth/token-hash.js';
import { serveHttp, type RunningHttp } from '../../../server/transports/http.js';
import { capturedLogger } from '../../support/auth-fixture.js';
import { startEnterpriseKernel, tempFile, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { connectHttp } from '../../support/sdk-client.js';

const TOKENS = { alice: 'tok-alice-0c6d2f', carol: 'tok-carol-a91e44', olga: 'tok-olga-5e0b7a' };
const ADMIN = 'admin-token-5d7e2b9c';

describe('Streamable HTTP with bearer tokens and the approvals admin endpoint (in-process server)', () => {
  let ent: EnterpriseKernel;
  let http: RunningHttp;
  let auth: TokenAuthenticator;
  let base: string;

  before(async () => {
    ent = await startEnterpriseKernel();
    const tokens = tempFile(
      'tokens.yaml',
      `tokens:\n  - { sha256: ${hashToken(TOKENS.alice)}, subject: alice, groups: [developers] }\n  - { sha256: ${hashToken(TOKENS.carol)}, subject: carol, groups: [contractors] }\n  - { sha256: ${hashToken(TOKENS.olga)}, subject: olga, groups: [approvers] }\n`,
    );
    const { logger } = capturedLogger();
    auth = await TokenAuthenticator.open(tokens, logger);
    const approvals = ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
    http = await serveHttp(ent.kernel.kernel, {
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: [],
      authenticator: auth,
      routes: adminEndpoint(approvals, { adminToken: ADMIN, metricsToken: '', authenticator: auth, logger }),
      logger,
    });
    base = http.url.replace(/\/mcp$/, '');
  });
  after(async () => {
    await http.close();
    auth.close();
    await ent.close();
  });

  const post = (authorization?: string): Promise<Response> =>
    fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'jira_delete', arguments: { path: '/rest/api/3/issue/PLAT-1' } } }),
    });

  it('answers 401 with WWW-Authenticate, never a tool result, to a request without a token or with a bad one', async () => {
    const missing = await post();
    expect(missing.status).to.equal(401);
    expect(missing.headers.get('www-authenticate')).to.equal('Bearer realm="mcp-devtools"');
    expect(await missing.json()).to.deep.equal({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Unauthorized: a bearer token is required (Authorization: Bearer <token>).' },
      id: null,
    });
    const wrong = await post('Bearer tok-guessed');
    expect(wrong.status).to.equal(401);
    expect(wrong.headers.get('www-authenticate')).to.equal(
      'Bearer realm="mcp-devtools", error="invalid_token", error_description="the bearer token is not recognised."',
    );
    expect(((await wrong.json()) as { result?: unknown }).result).to.equal(undefined);
    expect(ent.jira.requests).to.have.length(0);
    expect(await ent.kernel.kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals).list()).to.have.length(0);
  });

  it("hands each token's principal to the policy", async () => {
    const alice = await connectHttp(http.url, TOKENS.alice);
    const carol = await connectHttp(http.url, TOKENS.carol);
    try {
      const args = { name: 'jira_delete', arguments: { path: '/rest/api/3/issue/PLAT-1' } };
      expect((await alice.callTool(args))._meta).to.deep.include({ code: 'approval_required' });
      expect(((await carol.callTool(args))._meta?.decision as { ruleId: string }).ruleId).to.equal('contractors-read-only');
    } finally {
      await alice.close();
      await carol.close();
    }
  });

  it("lists approvals with the admin token, and decides them with an approver's own token only", async () => {
    const admin = (path: string, init: RequestInit = {}, token = ADMIN): Promise<Response> =>
      fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
    const refused = await admin('/admin/approvals', {}, TOKENS.alice);
    expect(refused.status).to.equal(403);
    const listed = (await (await admin('/admin/approvals')).json()) as { approvals: Array<{ id: string; status: string; subject: string }> };
    const pending = listed.approvals.find((a) => a.subject === 'alice')!;
    expect(pending.status).to.equal('pending');
    expect((await admin(`/admin/approvals/${pending.id}/grant`, { method: 'POST' })).status).to.equal(403);
    const granted = await admin(`/admin/approvals/${pending.id}/grant`, { method: 'POST' }, TOKENS.olga);
    expect(granted.status).to.equal(200);
    expect(((await granted.json()) as { approval: object }).approval).to.include({ id: pending.id, status: 'granted', decidedBy: 'olga' });
    const again = await admin(
      `/admin/approvals/${pending.id}/reject`,
      { method: 'POST', body: '{"reason": "No."}', headers: { 'content-type': 'application/json' } },
      TOKENS.olga,
    );
    expect([again.status, ((await again.json()) as { error: string }).error]).to.deep.equal([
      409,
      `Approval ${pending.id} was already decided: granted by olga.`,
    ]);
    expect((await admin('/admin/approvals/apr-000000000000000000000000/grant', { method: 'POST' }, TOKENS.olga)).status).to.equal(404);
    expect(
      (
        await admin(
          `/admin/approvals/${pending.id}/grant`,
          { method: 'POST', body: '{"by": "olga"}', headers: { 'content-type': 'application/json' } },
          TOKENS.olga,
        )
      ).status,
    ).to.equal(400);
    expect((await admin(`/admin/approvals/${pending.id}/grant`, {}, TOKENS.olga)).status).to.equal(405);
  });

  it('refuses to bind a non-loopback address with authentication off', async () => {
    const error = await serveHttp(ent.kernel.kernel, { host: '0.0.0.0', port: 0, allowedOrigins: [], logger: capturedLogger().logger }).catch(
      (e: unknown) => e,
    );
    expect(error)
      .to.be.instanceOf(StartupError)
      .and.to.have.property('message')
      .that.matches(/^Refusing to serve HTTP on 0\.0\.0\.0 with MCP_AUTH_MODE=off/);
  });
});
