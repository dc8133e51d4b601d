import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { AuditRecord } from '../../../plugins/policy/audit/audit-record.js';
import type { Decision } from '../../../plugins/policy/engine/policy-engine.js';
import { rejection } from '../../support/async.js';
import { PEOPLE, startEnterpriseKernel, tempFile, type EnterpriseKernel } from '../../support/enterprise-fixture.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const SECRET = 'whsec-egress-0b5d7e29a1';
const PIPELINE = { path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } };

function approvalIdOf(result: CallToolResult): string {
  return (result._meta!.decision as Decision).approvalId!;
}

/** The audit records of the attempts to deliver one event, once `count` of them are written (5 s at most). */
async function attemptsOf(audit: string, eventId: string, count: number): Promise<NonNullable<AuditRecord['notification']>[]> {
  const read = (): NonNullable<AuditRecord['notification']>[] =>
    readFileSync(audit, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as AuditRecord).notification)
      .filter((n): n is NonNullable<AuditRecord['notification']> => n?.eventId === eventId);
  const deadline = Date.now() + 5_000;
  while (read().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return read();
}

/**
 * Webhook receivers are reached under the egress guard, as URLs an upstream hands out are: a loopback, private,
 * link-local or metadata address only when MCP_EGRESS_ALLOW names it. A receiver written as an address is judged
 * at start-up; one written as a name is judged on each connection, on the address DNS answered.
 */
describe('approval webhooks under the egress guard (in-process kernel)', function () {
  this.timeout(30_000);
  let receiver: WebhookReceiver;
  let ent: EnterpriseKernel | undefined;

  before(async () => {
    receiver = await WebhookReceiver.start(SECRET, '/hooks/named-receiver-path');
  });
  afterEach(async () => {
    await ent?.close();
    ent = undefined;
  });
  after(async () => {
    await receiver?.close();
  });

  it('refuses to start with a receiver at a metadata or loopback address MCP_EGRESS_ALLOW does not name, without the secret path', async () => {
    const metadata = await rejection(
      startEnterpriseKernel({ env: { MCP_APPROVAL_WEBHOOK_URL: 'https://hooks.example/a, http://169.254.169.254/latest/secret-path-7' } }),
    );
    expect(metadata.message).to.include(
      'MCP_APPROVAL_WEBHOOK_URL: receiver 2 of 2 is refused: 169.254.169.254 is a cloud metadata address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.',
    );
    expect(metadata.message).not.to.include('secret-path-7');
    const loopback = await rejection(startEnterpriseKernel({ env: { MCP_APPROVAL_WEBHOOK_URL: receiver.url } }));
    expect(loopback.message).to.include('MCP_APPROVAL_WEBHOOK_URL: receiver 1 of 1 is refused: 127.0.0.1 is a loopback address.');
    expect(loopback.message).not.to.include('named-receiver-path');
    expect(receiver.posts).to.deep.equal([]);
  });

  it('refuses on the connection a receiver whose name resolves to loopback: nothing reaches it, the attempt is audited and not retried', async () => {
    const audit = tempFile('audit.jsonl', '');
    const named = receiver.url.replace('127.0.0.1', 'localhost');
    ent = await startEnterpriseKernel({ env: { MCP_APPROVAL_WEBHOOK_URL: named, MCP_APPROVAL_WEBHOOK_SECRET: SECRET, MCP_AUDIT_LOG: audit } });
    const id = approvalIdOf(await ent.kernel.call('circleci_post', PIPELINE, PEOPLE.rene));
    const [attempt, ...more] = await attemptsOf(audit, `${id}.held`, 1);
    expect(attempt).to.deep.include({ event: 'approval.held', receiver: new URL(named).origin, attempt: 1, delivered: false, retrying: false });
    expect(attempt!.error).to.equal(
      'refused by the egress guard: localhost resolves to 127.0.0.1, which is a loopback address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW',
    );
    // The first retry would have come after 1 s: none comes, since the address would be refused again.
    await new Promise((r) => setTimeout(r, 1_500));
    expect([more, await attemptsOf(audit, `${id}.held`, 1)].map((a) => a.length)).to.deep.equal([0, 1]);
    expect(receiver.posts).to.deep.equal([]);
    const warned = ent.kernel.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'approval event not delivered');
    expect(warned).to.deep.include({ level: 40, eventId: `${id}.held`, retrying: false });
    // The held call itself is untouched by a receiver refused.
    expect((await ent.kernel.call('circleci_post', PIPELINE, PEOPLE.rene))._meta!.decision).to.deep.include({ effect: 'approval_required', approvalId: id });
  });

  it('delivers to that name once MCP_EGRESS_ALLOW names it (and its port)', async () => {
    const named = receiver.url.replace('127.0.0.1', 'localhost');
    ent = await startEnterpriseKernel({
      env: { MCP_APPROVAL_WEBHOOK_URL: named, MCP_APPROVAL_WEBHOOK_SECRET: SECRET, MCP_EGRESS_ALLOW: `localhost:${new URL(named).port}` },
    });
    const id = approvalIdOf(await ent.kernel.call('circleci_post', { ...PIPELINE, body: { branch: 'allowed' } }, PEOPLE.rene));
    await receiver.waitFor('the held event', (r) => r.events.some((e) => e.id === `${id}.held`));
    expect(receiver.posts.map((p) => [p.path, p.status])).to.deep.equal([['/hooks/named-receiver-path', 200]]);
  });
});
