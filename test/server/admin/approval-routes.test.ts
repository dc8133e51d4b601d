import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { openStore } from '../../../core/store/open-store.js';
import { ApprovalStore } from '../../../plugins/policy/approvals/approval-store.js';
import { approvalRoutes } from '../../../server/admin/approval-routes.js';
import { capturedLogger } from '../../support/auth-fixture.js';
import { manualClock, PEOPLE } from '../../support/enterprise-fixture.js';

const ADMIN = 'admin-token-5d7e2b9c-41aa';

/** The admin routes alone on a plain HTTP server: what they answer does not depend on the MCP transport. */
describe('approvals admin endpoint: the token and the path (server/admin)', () => {
  let server: Server;
  let base: string;
  let approvalId: string;

  before(async () => {
    const approvals = new ApprovalStore(await openStore('memory://'), manualClock(), 60_000);
    const held = await approvals.settle(
      { effect: 'approval_required', ruleId: 'r', reason: 'Held.', policyVersion: 'sha256:0000000000000000' },
      { principal: PEOPLE.alice, tool: 'jira_delete', args: { path: '/rest/api/3/issue/PLAT-1' }, policyVersion: 'sha256:0000000000000000' },
    );
    approvalId = held.approvalId!;
    const routes = approvalRoutes(approvals, ADMIN, capturedLogger().logger);
    server = createServer((request, response) => {
      routes(request, response).then(
        (handled) => void (handled || response.writeHead(404).end()),
        () => void response.writeHead(500).end('{"error":"internal"}'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const admin = (path: string, token: string, method = 'GET'): Promise<Response> =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}` } });

  it('compares the admin token whole: a prefix, a longer token or another case is refused (the prefix mutation)', async () => {
    for (const token of ['a', ADMIN.slice(0, 1), ADMIN.slice(0, -1), `${ADMIN}x`, ADMIN.toUpperCase(), ` ${ADMIN}x`]) {
      const response = await admin('/admin/approvals', token);
      expect(response.status, token).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="mcp-devtools-admin"');
    }
    const ok = await admin('/admin/approvals', ADMIN);
    expect(ok.status).to.equal(200);
    expect(((await ok.json()) as { approvals: Array<{ id: string }> }).approvals.map((a) => a.id)).to.deep.equal([approvalId]);
  });

  for (const id of ['%E0%A4%A', '%ff', '%', 'apr-%zz']) {
    it(`answers 400, not 500, for the malformed escape in /admin/approvals/${id}/grant`, async () => {
      const response = await admin(`/admin/approvals/${id}/grant`, ADMIN, 'POST');
      expect(response.status).to.equal(400);
      expect(((await response.json()) as { error: string }).error).to.equal(
        `The approval id ${JSON.stringify(id)} is not valid percent-encoding; ids look like apr-4c9e0f0b8a6d2e1f3a5b7c9d.`,
      );
    });
  }

  it('still decides a well-formed id afterwards, percent-encoded or not', async () => {
    const encoded = approvalId.replace('apr-', 'apr%2D');
    const response = await admin(`/admin/approvals/${encoded}/grant`, ADMIN, 'POST');
    expect(response.status).to.equal(200);
    expect(((await response.json()) as { approval: { status: string } }).approval.status).to.equal('granted');
  });
});

describe('approvals admin endpoint: reasons, one approval, and bulk rejection (server/admin)', () => {
  let server: Server;
  let base: string;
  let approvals: ApprovalStore;
  const decision = { effect: 'approval_required' as const, ruleId: 'r', reason: 'Held.', policyVersion: 'sha256:0000000000000000' };
  const hold = async (principal: typeof PEOPLE.alice, key: string): Promise<string> =>
    (await approvals.settle(decision, { principal, tool: 'jira_delete', args: { path: `/rest/api/3/issue/${key}` }, policyVersion: decision.policyVersion }))
      .approvalId!;

  before(async () => {
    approvals = new ApprovalStore(await openStore('memory://'), manualClock(), 60_000);
    const routes = approvalRoutes(approvals, ADMIN, capturedLogger().logger);
    server = createServer((request, response) => {
      routes(request, response).then(
        (handled) => void (handled || response.writeHead(404).end()),
        () => void response.writeHead(500).end('{"error":"internal"}'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('refuses a rejection without a reason (400, still pending), and keeps the reason of a grant or rejection', async () => {
    const id = await hold(PEOPLE.alice, 'PLAT-1');
    for (const body of [undefined, { by: 'olga' }, { by: 'olga', reason: '  ' }]) {
      const refused = await post(`/admin/approvals/${id}/reject`, body);
      expect([refused.status, refused.json.error], JSON.stringify(body)).to.deep.equal([400, 'Say why you reject the call: the reason is told to the caller.']);
    }
    expect((await post(`/admin/approvals/${id}/grant`, { reason: 7 })).status).to.equal(400);
    expect((await approvals.get(id))!.status).to.equal('pending');
    const rejected = await post(`/admin/approvals/${id}/reject`, { by: 'olga', reason: 'PLAT-1 is the release tracker.' });
    expect(rejected.status).to.equal(200);
    expect(rejected.json.approval).to.include({ status: 'rejected', decidedBy: 'olga', decisionReason: 'PLAT-1 is the release tracker.' });
    const other = await hold(PEOPLE.alice, 'PLAT-2');
    const granted = await post(`/admin/approvals/${other}/grant`, { by: 'olga', reason: 'Duplicate of PLAT-3.' });
    expect(granted.json.approval).to.include({ status: 'granted', decisionReason: 'Duplicate of PLAT-3.' });
  });

  it('shows one approval by its id, and 404 for one unknown', async () => {
    const id = await hold(PEOPLE.rene, 'PLAT-5');
    const one = await fetch(`${base}/admin/approvals/${id}`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(((await one.json()) as { approval: { id: string; subject: string } }).approval).to.include({ id, subject: 'rene' });
    const unknown = await fetch(`${base}/admin/approvals/apr-000000000000000000000000`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(unknown.status).to.equal(404);
  });

  it("rejects several of one caller's held calls with one reason, reporting each; all of them without ids", async () => {
    const ids = [await hold(PEOPLE.carol, 'PLAT-10'), await hold(PEOPLE.carol, 'PLAT-11'), await hold(PEOPLE.carol, 'PLAT-12')];
    const renes = await hold(PEOPLE.rene, 'PLAT-13');
    expect((await post('/admin/approvals/reject', { subject: 'carol', ids })).status).to.equal(400);
    expect((await post('/admin/approvals/reject', { reason: 'Stop.' })).json.error).to.equal(
      'Name whose held calls to reject: {"subject": "alice", "reason": "..."}.',
    );
    const some = await post('/admin/approvals/reject', { subject: 'carol', ids: [ids[0], renes], reason: 'A loop: stop.', by: 'olga' });
    expect(some.json.results).to.deep.equal([
      { id: ids[0], status: 'rejected' },
      { id: renes, error: `Approval ${renes} is rene's, not carol's.` },
    ]);
    const rest = await post('/admin/approvals/reject', { subject: 'carol', reason: 'A loop: stop.', by: 'olga' });
    expect(rest.json.results).to.deep.equal([
      { id: ids[1], status: 'rejected' },
      { id: ids[2], status: 'rejected' },
    ]);
    expect((await approvals.get(renes))!.status).to.equal('pending');
    expect((await approvals.get(ids[2]!))!).to.include({ decidedBy: 'olga', decisionReason: 'A loop: stop.' });
  });
});
