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
