import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Principal } from '../../../core/identity/principal.js';
import { openStore } from '../../../core/store/open-store.js';
import { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { Deciders } from '../../../plugins/policy/approvals/deciders.js';
import { adminEndpoint } from '../../support/admin-endpoint.js';
import { noAuthentication, type Authenticator } from '../../../server/auth/authenticator.js';
import { TokenAuthenticator } from '../../../server/auth/token-authenticator.js';
import { capturedLogger, tokensFileFolder } from '../../support/auth-fixture.js';
import { manualClock, PEOPLE } from '../../support/enterprise-fixture.js';

const ADMIN = 'admin-token-5d7e2b9c-41aa';
const SCRAPE = 'metrics-token-0b3e77d1-9c2f';
const TOKENS = { olga: 'tok-olga-approver-61b2', paul: 'tok-paul-approver-0c9e', alice: 'tok-alice-developer-77d4' };
const OLGA: Principal = { subject: 'olga', groups: ['approvers', 'developers'], via: 'tokens' };
const decision = { effect: 'approval_required' as const, ruleId: 'r', reason: 'Held.', policyVersion: 'sha256:0000000000000000' };

/** The admin routes alone on a plain HTTP server, with a tokens file of two approvers and a developer. */
async function adminServer(authenticator?: Authenticator): Promise<{ base: string; approvals: ApprovalStore; close(): Promise<void> }> {
  const approvals = new ApprovalStore(await openStore('memory://'), manualClock(), 60_000, 20, { deciders: new Deciders(['approvers']) });
  const folder = tokensFileFolder('admin-routes-', [
    { token: TOKENS.olga, subject: 'olga', groups: OLGA.groups },
    { token: TOKENS.paul, subject: 'paul', groups: ['approvers'] },
    { token: TOKENS.alice, subject: 'alice', groups: ['developers'] },
  ]);
  const { logger } = capturedLogger();
  const tokens = authenticator ?? (await TokenAuthenticator.open(join(folder.dir, 'tokens.yaml'), logger));
  const routes = adminEndpoint(approvals, { adminToken: ADMIN, metricsToken: SCRAPE, authenticator: tokens, logger });
  const server: Server = createServer((request, response) => {
    routes(request, response).then(
      (handled) => void (handled || response.writeHead(404).end()),
      () => void response.writeHead(500).end('{"error":"internal"}'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    approvals,
    close: async () => {
      (tokens as { close?(): void }).close?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function hold(approvals: ApprovalStore, principal: Principal, key: string): Promise<string> {
  const args = { path: `/rest/api/3/issue/${key}` };
  return (await approvals.settle(decision, { principal, tool: 'jira_delete', args, policyVersion: decision.policyVersion })).approvalId!;
}

describe('approvals admin endpoint: who reads, who decides (the policy plugin route, mounted as the server mounts it)', () => {
  let admin: Awaited<ReturnType<typeof adminServer>>;
  before(async () => (admin = await adminServer()));
  after(() => admin.close());

  const request = async (
    path: string,
    token: string | undefined,
    method = 'GET',
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${admin.base}${path}`, {
      method,
      headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('compares the admin token whole: a prefix, a longer token or another case is refused (the prefix mutation)', async () => {
    const id = await hold(admin.approvals, PEOPLE.alice, 'PLAT-1');
    for (const token of ['a', ADMIN.slice(0, 1), ADMIN.slice(0, -1), `${ADMIN}x`, ADMIN.toUpperCase(), ` ${ADMIN}x`]) {
      const response = await fetch(`${admin.base}/admin/approvals`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status, token).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="mcp-devtools-admin"');
    }
    const ok = await request('/admin/approvals', ADMIN);
    expect(ok.status).to.equal(200);
    expect((ok.json.approvals as Array<{ id: string }>).map((a) => a.id)).to.include(id);
  });

  it('never decides with MCP_ADMIN_TOKEN: it reads, and a grant or rejection it posts is refused, saying what to send', async () => {
    const id = await hold(admin.approvals, PEOPLE.alice, 'PLAT-2');
    expect((await request(`/admin/approvals/${id}`, ADMIN)).json.approval).to.include({ id, status: 'pending' });
    for (const [path, body] of [
      [`/admin/approvals/${id}/grant`, undefined],
      [`/admin/approvals/${id}/reject`, { reason: 'No.' }],
      ['/admin/approvals/reject', { subject: 'alice', reason: 'No.' }],
    ] as const) {
      const refused = await request(path, ADMIN, 'POST', body);
      expect(refused.status, path).to.equal(403);
      expect(refused.json.error).to.match(/^MCP_ADMIN_TOKEN reads approvals but never decides them: grant or reject with the approver's own bearer token/);
    }
    expect((await admin.approvals.get(id))!.status).to.equal('pending');
  });

  it('refuses the scrape token everywhere: it reads and decides nothing', async () => {
    const id = await hold(admin.approvals, PEOPLE.alice, 'PLAT-3');
    for (const [path, method] of [
      ['/admin/approvals', 'GET'],
      [`/admin/approvals/${id}/grant`, 'POST'],
    ] as const) {
      const refused = await request(path, SCRAPE, method);
      expect([refused.status, refused.json.error], path).to.deep.equal([
        403,
        "This is MCP_METRICS_TOKEN, which scrapes /metrics and nothing else: approvals are read with MCP_ADMIN_TOKEN and decided with an approver's own token.",
      ]);
    }
    expect((await admin.approvals.get(id))!.status).to.equal('pending');
  });

  it("decides as the principal of the approver's own token, and takes no name from the body", async () => {
    const id = await hold(admin.approvals, PEOPLE.alice, 'PLAT-4');
    const named = await request(`/admin/approvals/${id}/grant`, TOKENS.olga, 'POST', { by: 'mallory', reason: 'Fine.' });
    expect([named.status, named.json.error]).to.deep.equal([
      400,
      '"by" is not taken: the server decides as the principal of your bearer token, so send the approver\'s own token instead of naming them.',
    ]);
    expect((await admin.approvals.get(id))!.status).to.equal('pending');
    const granted = await request(`/admin/approvals/${id}/grant`, TOKENS.olga, 'POST', { reason: 'Fine.' });
    expect(granted.status).to.equal(200);
    expect(granted.json.approval).to.include({ status: 'granted', decidedBy: 'olga', decisionReason: 'Fine.' });
  });

  it('refuses an approver their own call, and a caller who is no approver, on reads and decisions alike', async () => {
    const own = await hold(admin.approvals, OLGA, 'PLAT-5');
    const refused = await request(`/admin/approvals/${own}/grant`, TOKENS.olga, 'POST', { reason: 'Mine is fine.' });
    expect([refused.status, refused.json.error]).to.deep.equal([403, 'olga asked for this call, so another approver must decide it.']);
    const bulk = await request('/admin/approvals/reject', TOKENS.olga, 'POST', { subject: 'olga', reason: 'Stop.' });
    expect(bulk.json.results).to.deep.equal([{ id: own, error: 'olga asked for this call, so another approver must decide it.' }]);
    expect((await admin.approvals.get(own))!.status).to.equal('pending');
    const notApprover = 'Only members of approvers may grant or reject calls; alice is not.';
    const others = await hold(admin.approvals, PEOPLE.rene, 'PLAT-6');
    for (const [path, method] of [
      ['/admin/approvals', 'GET'],
      [`/admin/approvals/${others}`, 'GET'],
      [`/admin/approvals/${others}/grant`, 'POST'],
      ['/admin/approvals/reject', 'POST'],
    ] as const) {
      const answer = await request(path, TOKENS.alice, method, method === 'POST' ? { subject: 'rene', reason: 'Stop.' } : undefined);
      expect([answer.status, answer.json.error], path).to.deep.equal([403, notApprover]);
    }
    expect((await admin.approvals.get(others))!.status).to.equal('pending');
    expect((await request(`/admin/approvals/${own}/grant`, TOKENS.paul, 'POST')).json.approval).to.include({ decidedBy: 'paul' });
  });

  for (const id of ['%E0%A4%A', '%ff', '%', 'apr-%zz']) {
    it(`answers 400, not 500, for the malformed escape in /admin/approvals/${id}/grant`, async () => {
      const response = await request(`/admin/approvals/${id}/grant`, TOKENS.olga, 'POST');
      expect([response.status, response.json.error]).to.deep.equal([
        400,
        `The approval id ${JSON.stringify(id)} is not valid percent-encoding; ids look like apr-4c9e0f0b8a6d2e1f3a5b7c9d.`,
      ]);
    });
  }

  it('still decides a well-formed id afterwards, percent-encoded or not', async () => {
    const id = await hold(admin.approvals, PEOPLE.alice, 'PLAT-7');
    const response = await request(`/admin/approvals/${id.replace('apr-', 'apr%2D')}/grant`, TOKENS.olga, 'POST');
    expect(response.status).to.equal(200);
    expect((response.json.approval as { status: string }).status).to.equal('granted');
  });

  it('refuses a rejection without a reason (400, still pending), and keeps the reason of a grant or rejection', async () => {
    const id = await hold(admin.approvals, PEOPLE.alice, 'PLAT-8');
    for (const body of [undefined, {}, { reason: '  ' }]) {
      const refused = await request(`/admin/approvals/${id}/reject`, TOKENS.olga, 'POST', body);
      expect([refused.status, refused.json.error], JSON.stringify(body)).to.deep.equal([400, 'Say why you reject the call: the reason is told to the caller.']);
    }
    expect((await request(`/admin/approvals/${id}/grant`, TOKENS.olga, 'POST', { reason: 7 })).status).to.equal(400);
    expect((await admin.approvals.get(id))!.status).to.equal('pending');
    const rejected = await request(`/admin/approvals/${id}/reject`, TOKENS.olga, 'POST', { reason: 'PLAT-8 is the release tracker.' });
    expect(rejected.json.approval).to.include({ status: 'rejected', decidedBy: 'olga', decisionReason: 'PLAT-8 is the release tracker.' });
    const again = await request(`/admin/approvals/${id}/grant`, TOKENS.paul, 'POST');
    expect([again.status, again.json.error]).to.deep.equal([409, `Approval ${id} was already decided: rejected by olga.`]);
  });

  it('shows one approval by its id to an approver, and 404 for one unknown', async () => {
    const id = await hold(admin.approvals, PEOPLE.rene, 'PLAT-9');
    expect((await request(`/admin/approvals/${id}`, TOKENS.paul)).json.approval).to.include({ id, subject: 'rene' });
    expect((await request('/admin/approvals/apr-000000000000000000000000', TOKENS.paul)).status).to.equal(404);
  });

  it("rejects several of one caller's held calls with one reason, reporting each; all of them without ids", async () => {
    const carol = { subject: 'carol', groups: ['contractors'], via: 'tokens' };
    const ids = [await hold(admin.approvals, carol, 'PLAT-10'), await hold(admin.approvals, carol, 'PLAT-11'), await hold(admin.approvals, carol, 'PLAT-12')];
    const renes = await hold(admin.approvals, PEOPLE.rene, 'PLAT-13');
    const post = (body: unknown) => request('/admin/approvals/reject', TOKENS.olga, 'POST', body);
    expect((await post({ subject: 'carol', ids })).status).to.equal(400);
    expect((await post({ reason: 'Stop.' })).json.error).to.equal('Name whose held calls to reject: {"subject": "alice", "reason": "..."}.');
    const some = await post({ subject: 'carol', ids: [ids[0], renes], reason: 'A loop: stop.' });
    expect(some.json.results).to.deep.equal([
      { id: ids[0], status: 'rejected' },
      { id: renes, error: `Approval ${renes} is rene's, not carol's.` },
    ]);
    const rest = await post({ subject: 'carol', reason: 'A loop: stop.' });
    expect(rest.json.results).to.deep.equal([
      { id: ids[1], status: 'rejected' },
      { id: ids[2], status: 'rejected' },
    ]);
    expect((await admin.approvals.get(renes))!.status).to.equal('pending');
    expect((await admin.approvals.get(ids[2]!))!).to.include({ decidedBy: 'olga', decisionReason: 'A loop: stop.' });
  });

  it('answers 401, saying what to send, to a request without a bearer token', async () => {
    const response = await fetch(`${admin.base}/admin/approvals`);
    expect(response.status).to.equal(401);
    expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="mcp-devtools-admin"');
    expect(((await response.json()) as { error: string }).error).to.equal(
      "Send your own bearer token (Authorization: Bearer <token>): approvals are read with MCP_ADMIN_TOKEN and decided with an approver's own token.",
    );
  });
});

describe('approvals admin endpoint with authentication off (the policy plugin route)', () => {
  let admin: Awaited<ReturnType<typeof adminServer>>;
  before(async () => (admin = await adminServer(noAuthentication)));
  after(() => admin.close());

  it('reads with MCP_ADMIN_TOKEN, and lets nobody decide: everyone would be "local"', async () => {
    const id = await hold(admin.approvals, PEOPLE.alice, 'PLAT-20');
    expect((await fetch(`${admin.base}/admin/approvals`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).to.equal(200);
    const refused = await fetch(`${admin.base}/admin/approvals/${id}/grant`, { method: 'POST', headers: { authorization: `Bearer ${TOKENS.olga}` } });
    expect([refused.status, ((await refused.json()) as { error: string }).error]).to.deep.equal([
      401,
      "The bearer token is not MCP_ADMIN_TOKEN, and with MCP_AUTH_MODE=off nobody can sign in here as themselves: run the server with MCP_AUTH_MODE=tokens or oidc (approvals are read with MCP_ADMIN_TOKEN and decided with an approver's own token).",
    ]);
    expect((await admin.approvals.get(id))!.status).to.equal('pending');
  });
});
