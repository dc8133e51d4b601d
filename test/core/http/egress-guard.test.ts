// The egress guard (issue 42): what a URL an upstream hands out may reach. Unit tests of the rules, then the
// upstream client against loopback mocks, where the "internal service" is a mock on 127.0.0.1 too.
import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { EgressGuard, parseEgressAllow } from '../../../core/http/egress-guard.js';
import type { UpstreamClient, UpstreamClientOptions } from '../../../core/http/upstream-client.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ciClient } from '../../support/ci-client.js';
import { freePort } from '../../support/free-port.js';
import { plainToolContext } from '../../support/tool-context.js';

const guard = (vendorBase: string, allow = ''): EgressGuard => new EgressGuard(new URL(vendorBase), parseEgressAllow(allow));
const refusal = (url: string, vendorBase = 'https://api.github.com', allow = ''): string | undefined => guard(vendorBase, allow).refusalOf(new URL(url));

describe('egress guard: the rules', () => {
  for (const [url, kind] of [
    ['https://127.0.0.1/', 'a loopback'],
    ['https://127.8.9.10:8080/', 'a loopback'],
    ['https://0x7f000001/', 'a loopback'], // how a URL may write 127.0.0.1
    ['https://[::1]/', 'a loopback'],
    ['https://[::ffff:127.0.0.1]/', 'a loopback'], // IPv4-mapped
    ['https://10.1.2.3/', 'a private (RFC 1918)'],
    ['https://172.31.255.1/', 'a private (RFC 1918)'],
    ['https://192.168.1.1/', 'a private (RFC 1918)'],
    ['https://100.64.0.1/', 'a shared (CGNAT)'],
    ['https://169.254.169.254/latest/meta-data/', 'a cloud metadata'],
    ['https://169.254.170.2/v2/credentials', 'a cloud metadata'],
    ['https://[fd00:ec2::254]/latest/meta-data/', 'a cloud metadata'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'a cloud metadata'], // 169.254.169.254 through a NAT64 gateway
    ['https://169.254.1.1/', 'a link-local'],
    ['https://[fe80::1]/', 'a link-local'],
    ['https://[fd12:3456::1]/', 'a unique-local'],
    ['https://[fc00::1]/', 'a unique-local'], // fc00::/7 is unique-local, not fd00::/8 alone
    ['https://[fcab:cdef::9]/', 'a unique-local'],
    ['https://0.0.0.0/', 'an unspecified'],
    ['https://[::]/', 'an unspecified'],
    ['https://224.0.0.1/', 'a multicast'],
    ['https://255.255.255.255/', 'a reserved'],
  ]) {
    it(`refuses ${url}: ${kind} address`, () => {
      expect(refusal(url)).to.match(
        new RegExp(`^\\S+ is ${kind.replace(/[()]/g, '\\$&')} address\\. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW$`),
      );
    });
  }

  it('lets public addresses and names through before connecting (a name is judged on what it resolves to)', () => {
    for (const url of [
      'https://140.82.112.21/',
      'https://[2606:4700::1111]/',
      'https://[64:ff9b::8c52:7015]/', // 140.82.112.21 through a NAT64 gateway
      'https://pipelines.actions.githubusercontent.com/x',
      'https://localhost/',
    ]) {
      expect(refusal(url), url).to.equal(undefined);
    }
  });

  it('fetches https only, and http only when the vendor itself is configured with http', () => {
    expect(refusal('http://140.82.112.21/')).to.equal(
      'its scheme is http, and a URL an upstream hands out is fetched over https only (http only when the vendor is configured with an http base URL)',
    );
    expect(refusal('http://140.82.112.21/', 'http://jira.internal:8080')).to.equal(undefined);
    expect(refusal('ftp://140.82.112.21/', 'http://jira.internal:8080')).to.equal(
      'its scheme is ftp, and a URL an upstream hands out is fetched over https or http',
    );
  });

  it("allows the vendor's own host and port whatever its address, and nothing else on that host", () => {
    expect(refusal('https://10.0.0.5/blob', 'https://10.0.0.5/api/v3')).to.equal(undefined);
    expect(refusal('https://10.0.0.5:8443/admin', 'https://10.0.0.5/api/v3')).to.match(/^10\.0\.0\.5 is a private \(RFC 1918\) address\. /);
    expect(guard('https://ghe.internal/api/v3').addressRefusal('ghe.internal', 443, '10.0.0.5')).to.equal(undefined);
    expect(guard('https://ghe.internal/api/v3').addressRefusal('storage.internal', 443, '10.0.0.9')).to.equal(
      'storage.internal resolves to 10.0.0.9, which is a private (RFC 1918) address',
    );
  });

  it('allows what MCP_EGRESS_ALLOW names: a host on any port, a host on one port, a CIDR range', () => {
    const allow = 'storage.internal, 127.0.0.1:9000, 10.20.0.0/16, [fd00::5]:443, fd00:ab::/32, 169.254.10.10/32';
    const g = guard('https://api.github.com', allow);
    expect(g.addressRefusal('storage.internal', 8443, '10.0.0.9')).to.equal(undefined);
    expect(g.addressRefusal('127.0.0.1', 9000, '127.0.0.1')).to.equal(undefined);
    expect(g.addressRefusal('127.0.0.1', 9001, '127.0.0.1')).to.equal('127.0.0.1 is a loopback address');
    expect(g.addressRefusal('minio.internal', 443, '10.20.3.4')).to.equal(undefined);
    expect(g.addressRefusal('minio.internal', 443, '10.21.3.4')).to.match(/private/);
    expect(g.addressRefusal('fd00::5', 443, 'fd00:0:0:0:0:0:0:5')).to.equal(undefined);
    expect(g.addressRefusal('fd00::5', 80, 'fd00::5')).to.match(/unique-local/);
    expect(g.addressRefusal('minio.internal', 9000, '127.0.0.1'), 'a name resolving to an allowed address').to.equal(undefined);
    expect(g.addressRefusal('blob.internal', 443, 'fd00:ab:1::9')).to.equal(undefined);
    expect(g.addressRefusal('blob.internal', 443, 'fd00:ac::9')).to.match(/unique-local/);
    expect(g.addressRefusal('169.254.10.10', 80, '169.254.10.10')).to.equal(undefined);
    expect(g.addressRefusal('169.254.10.11', 80, '169.254.10.11')).to.match(/link-local/);
  });

  it('stops the start on an entry it cannot read, naming it and the forms it takes', () => {
    for (const entry of ['http://storage.internal', '10.0.0.0/33', 'fd00::/129', '10.0.0/8', 'host:99999', 'a..b', '*.internal']) {
      expect(() => parseEgressAllow(`storage.internal, ${entry}`), entry)
        .to.throw(StartupError)
        .with.property(
          'message',
          `MCP_EGRESS_ALLOW: ${JSON.stringify(entry)} is not a host, host:port pair or CIDR range; write them comma-separated, such as storage.internal, 127.0.0.1:9000, 10.20.0.0/16.`,
        );
    }
    expect(new EgressGuard(new URL('https://api.github.com'), parseEgressAllow(' , ')).addressRefusal('127.0.0.1', 80, '127.0.0.1')).to.equal(
      '127.0.0.1 is a loopback address',
    );
  });
});

describe('egress guard: redirects to another origin through the upstream client', () => {
  let vendor: MockUpstream;
  let internal: MockUpstream;

  before(async () => {
    vendor = await MockUpstream.start();
    internal = await MockUpstream.start();
  });
  after(async () => {
    await vendor.close();
    await internal.close();
  });
  beforeEach(() => {
    vendor.reset();
    internal.reset();
    internal.on('GET', '/admin/config', { body: { internal: 'canary-internal-config' } });
  });

  const client = (extra: Partial<UpstreamClientOptions> = {}): UpstreamClient => ciClient(vendor.url, extra);
  const followed = (c: UpstreamClient, path = '/api/v2/logs') =>
    c.send(plainToolContext(), { method: 'GET', path }, { expect: 'text', followForeignRedirectWithoutAuth: true }).catch((e: unknown) => e);
  const internalPort = (): number => Number(new URL(internal.url).port);

  it('refuses a redirect to a loopback service: nothing is sent there, and the error says what to set', async () => {
    vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: `${internal.url}/admin/config` } });
    const error = await followed(client());
    expect(error).to.include({ code: 'egress_refused', status: 302 });
    expect((error as Error).message).to.equal(
      `CI redirected GET /api/v2/logs to another origin (${internal.url}); it is not followed: 127.0.0.1 is a loopback address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.`,
    );
    expect(internal.requests).to.have.length(0);
  });

  it('lets the loopback target through when MCP_EGRESS_ALLOW names it, without credentials', async () => {
    vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: `${internal.url}/admin/config` } });
    const response = await followed(client({ egressAllow: parseEgressAllow(`127.0.0.1:${internalPort()}`) }));
    expect(response).to.have.property('text', JSON.stringify({ internal: 'canary-internal-config' }));
    expect(internal.requests[0]!.headers.authorization).to.equal(undefined);
  });

  it('never follows a write to another origin, nor a hop whose path plays a trick, even when foreign hops are allowed', async () => {
    const allowed = client({ egressAllow: parseEgressAllow(`127.0.0.1:${internalPort()}`) });
    vendor.on('POST', '/api/v2/upload', { status: 307, headers: { location: `${internal.url}/upload` } });
    const write = await allowed
      .send(plainToolContext(), { method: 'POST', path: '/api/v2/upload', body: { a: 1 } }, { followForeignRedirectWithoutAuth: true })
      .catch((e: unknown) => e);
    expect(write).to.include({ code: 'upstream_redirect_refused', status: 307 });
    expect((write as Error).message).to.contain('it is not followed: a write is never redirected');
    vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: `${internal.url}/blob/..;/admin/config` } });
    const trick = await followed(allowed);
    expect(trick).to.have.property('code', 'upstream_redirect_refused');
    expect((trick as Error).message).to.contain('it contains ";" (path parameters');
    expect(internal.requests).to.have.length(0);
  });

  it('judges a name on the address it resolves to, where the connection is made (localhost is loopback)', async () => {
    vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: `http://localhost:${internalPort()}/admin/config` } });
    const error = await followed(client());
    expect(error).to.have.property('code', 'egress_refused');
    expect((error as Error).message).to.match(
      /^CI: GET \/api\/v2\/logs was not sent: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address\. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW\.$/,
    );
    expect(internal.requests).to.have.length(0);
  });

  it('connects to a name that resolves to an address MCP_EGRESS_ALLOW names (localhost, allowed as 127.0.0.1)', async () => {
    vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: `http://localhost:${internalPort()}/admin/config` } });
    const allowed = client({ egressAllow: parseEgressAllow(`127.0.0.1:${internalPort()}, [::1]:${internalPort()}`) });
    expect(await followed(allowed)).to.have.property('text', JSON.stringify({ internal: 'canary-internal-config' }));
  });

  it("judges an allowance's port against the scheme's default when the URL names none", async () => {
    // Allowed, so the connection is tried (nothing listens on port 80 or 443 here); with the wrong default it
    // would be refused before connecting.
    for (const [url, allow] of [
      ['http://localhost/blob', 'localhost:80'],
      ['https://localhost/blob', 'localhost:443'],
    ] as const) {
      vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: url } });
      const error = await followed(client({ egressAllow: parseEgressAllow(allow) }));
      expect(error, url).to.have.property('code', 'upstream_unreachable');
      expect(String(error), url).not.to.contain('MCP_EGRESS_ALLOW');
    }
  });

  it('reports a name that does not resolve as unreachable, not as refused', async () => {
    vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: 'http://no-such-host.invalid/blob' } });
    const error = await followed(client());
    expect(error).to.have.property('code', 'upstream_unreachable');
    expect((error as Error).message).to.match(/\((ENOTFOUND|EAI_AGAIN)\)/);
  });

  it('tells no open port from a closed one: the refusal is the same, and comes before any connection', async () => {
    const closed = await freePort();
    const answers: string[] = [];
    for (const port of [internalPort(), closed]) {
      for (const host of ['127.0.0.1', 'localhost']) {
        vendor.on('GET', '/api/v2/logs', { status: 302, headers: { location: `http://${host}:${port}/admin/config` } });
        answers.push(String((await followed(client())) as Error).replaceAll(String(port), 'PORT'));
      }
    }
    expect(answers[0]).to.equal(answers[2]);
    expect(answers[1]).to.equal(answers[3]);
    expect(internal.requests).to.have.length(0);
  });
});
