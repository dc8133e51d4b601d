// The egress guard where it holds: in the connection. A name's every DNS answer is judged before the socket may
// use one, so a name that answers with a public address and 127.0.0.1 (one way to reach the host's own services)
// is refused, whichever answer comes first. DNS is the one thing faked here: on this machine `localhost` resolves
// to loopback only, so a resolver that answers as the test says stands in for a hostile name server. The request
// goes through pooledRequest, as upstream calls and webhook posts do, in the guard's pool (whose first creation,
// here, is given the resolver); the connector and the loopback service behind it are real.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { expect } from 'chai';
import { guardedPool, type ResolveAll } from '../../../core/http/egress-connector.js';
import { EgressGuard, NO_EGRESS_ALLOWANCE, egressRefusalIn, parseEgressAllow, type EgressAllowList } from '../../../core/http/egress-guard.js';
import { pooledRequest } from '../../../core/http/pooled-request.js';
import { rejection } from '../../support/async.js';

/** A name server that answers each name with the addresses the test gives, in that order. */
function resolverAnswering(answers: Record<string, readonly string[]>): ResolveAll {
  return (hostname, _options, callback) => {
    const addresses = answers[hostname];
    if (addresses === undefined) process.nextTick(callback, Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    else
      process.nextTick(
        callback,
        null,
        addresses.map((address) => ({ address, family: isIP(address) })),
      );
  };
}

/** A GET of `url` under a fresh guard whose pool resolves names with the test's answers: its status and body. */
async function get(
  url: string,
  answers: Record<string, readonly string[]>,
  allow: EgressAllowList = NO_EGRESS_ALLOWANCE,
): Promise<{ status: number; text: string }> {
  const egress = new EgressGuard(new URL('https://vendor.invalid/'), allow);
  const pool = guardedPool(egress, {}, resolverAnswering(answers));
  try {
    const response = await pooledRequest(new URL(url), { method: 'GET', headers: {}, signal: AbortSignal.timeout(15_000), egress });
    return { status: response.status, text: (await response.body.toArray()).join('') };
  } finally {
    await pool.close();
  }
}

describe('egress connector: every address a name resolves to is judged (fake resolver, real pool)', () => {
  let service: Server;
  let port: number;
  const reached: string[] = [];

  before(async () => {
    service = createServer((request, response) => {
      reached.push(request.url ?? '');
      response.end('internal-canary');
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    port = (service.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => service.close(() => resolve()));
  });
  beforeEach(() => (reached.length = 0));

  it('refuses a name resolving to a public address and to 127.0.0.1, whichever DNS answers first; nothing reaches the service', async () => {
    for (const answers of [
      ['203.0.113.10', '127.0.0.1'],
      ['127.0.0.1', '203.0.113.10'],
    ]) {
      const error = await rejection(get(`http://mixed.example:${port}/admin/config`, { 'mixed.example': answers }));
      const refused = egressRefusalIn(error);
      expect(refused, `${answers.join(', ')}: ${String(error)}`).not.to.equal(undefined);
      expect(refused!.code).to.equal('ERR_EGRESS_REFUSED');
      expect(refused!.message).to.contain('mixed.example resolves to 127.0.0.1, which is a loopback address');
    }
    expect(reached).to.deep.equal([]);
  });

  it('refuses a name whose answers mix a public address and a metadata address over IPv6 and IPv4', async () => {
    const error = await rejection(get(`http://cloud.example:${port}/latest/meta-data/`, { 'cloud.example': ['2606:4700::1111', '169.254.169.254'] }));
    expect(egressRefusalIn(error)?.message ?? `not refused: ${String(error)}`).to.contain(
      'cloud.example resolves to 169.254.169.254, which is a cloud metadata address',
    );
  });

  it('refuses an address written in the URL at the connection too, before any byte is sent', async () => {
    for (const url of [`http://127.0.0.1:${port}/admin/config`, `http://[::1]:${port}/admin/config`, 'http://169.254.169.254/latest/meta-data/']) {
      const error = await rejection(get(url, {}));
      expect(egressRefusalIn(error)?.code ?? `not refused: ${String(error)}`, url).to.equal('ERR_EGRESS_REFUSED');
    }
    expect(reached).to.deep.equal([]);
  });

  it('connects through the same resolver when every answer is allowed (MCP_EGRESS_ALLOW names the address and port)', async () => {
    const answer = await get(`http://storage.example:${port}/blob`, { 'storage.example': ['127.0.0.1'] }, parseEgressAllow(`127.0.0.1:${port}`));
    expect(answer).to.deep.equal({ status: 200, text: 'internal-canary' });
    expect(reached).to.deep.equal(['/blob']);
  });
});
