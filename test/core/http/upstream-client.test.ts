import { expect } from 'chai';
import { parseEgressAllow } from '../../../core/http/egress-guard.js';
import type { UpstreamClient, UpstreamClientOptions } from '../../../core/http/upstream-client.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { cacheKey } from '../../../plugins/cache/cache-entry.js';
import { secretScrubber } from '../../../core/result/secret-scrubber.js';
import { ciClient } from '../../support/ci-client.js';
import { plainToolContext } from '../../support/tool-context.js';

function client(baseUrl: string, headers: Record<string, string>, secret = 'material', extra: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  return ciClient(baseUrl, { auth: () => headers, secretMaterial: () => secret, ...extra });
}

const toolContext = (): ReturnType<typeof plainToolContext> => plainToolContext();

describe('upstream client: credentials stay on their origin, and key the cache (second, independent tests)', () => {
  let vendor: MockUpstream;
  let foreign: MockUpstream;

  before(async () => {
    vendor = await MockUpstream.start();
    foreign = await MockUpstream.start();
  });
  after(async () => {
    await vendor.close();
    await foreign.close();
  });
  beforeEach(() => {
    vendor.reset();
    foreign.reset();
  });

  it('sends no credential header of any kind (token headers, Basic, cookies) to the origin a redirect leads to', async () => {
    const headers = { 'circle-token': 'CCIPAT_redirect-canary-1', authorization: `Basic ${Buffer.from('bot@acme.example:ATATT3x-canary').toString('base64')}` };
    vendor.on('GET', '/api/v2/project/gh/acme/app/42/artifacts/log.txt', { status: 302, headers: { location: `${foreign.url}/blob/log.txt?sig=abc` } });
    foreign.on('GET', '/blob/log.txt', { body: 'the log' });
    const ci = client(vendor.url, headers, 'material', { egressAllow: parseEgressAllow(new URL(foreign.url).host) });
    const response = await ci.send(
      toolContext(),
      { method: 'GET', path: '/api/v2/project/gh/acme/app/42/artifacts/log.txt' },
      { expect: 'text', followForeignRedirectWithoutAuth: true },
    );
    expect(response.body).to.equal('the log');
    expect(vendor.requests[0]!.headers).to.include({ 'circle-token': headers['circle-token'], authorization: headers.authorization });
    const sent = foreign.requests[0]!.headers;
    expect(Object.keys(sent).filter((h) => ['authorization', 'circle-token', 'cookie', 'proxy-authorization'].includes(h))).to.deep.equal([]);
    expect(JSON.stringify(sent)).not.to.contain('canary');
  });

  it('refuses a cross-origin redirect outright unless the call allows it, sending nothing there', async () => {
    vendor.on('GET', '/api/v2/me', { status: 307, headers: { location: `${foreign.url}/api/v2/me` } });
    const error = await client(vendor.url, { 'circle-token': 'CCIPAT_x' })
      .send(toolContext(), { method: 'GET', path: '/api/v2/me' })
      .catch((e: unknown) => e);
    expect(error).to.have.property('code', 'upstream_redirect_refused');
    expect(foreign.requests).to.have.length(0);
  });

  it("sends a route prepared for one client through another only as that other prepares it: its token never reaches the first's host", async () => {
    vendor.on('GET', '/api/v2/me', { body: { who: 'vendor' } });
    foreign.on('GET', '/api/v2/me', { body: { who: 'foreign' } });
    const route = { method: 'GET' as const, path: '/api/v2/me' };
    const first = client(vendor.url, { authorization: 'Bearer canary-first-token' });
    const second = client(foreign.url, { authorization: 'Bearer canary-second-token' });
    // The pipeline prepared the route with the tool's own client; the handler sends it through another one.
    const ctx = plainToolContext({ route, prepared: first.prepare(route) });
    const response = await second.send(ctx, route);
    expect(response.body).to.deep.equal({ who: 'foreign' });
    expect(vendor.requests).to.have.length(0);
    expect(foreign.requests[0]!.headers.authorization).to.equal('Bearer canary-second-token');
  });

  it("keeps a same-origin redirect inside the base URL's path, at a / boundary: /jira is not /jira-sandbox", async () => {
    vendor.on('GET', '/jira/rest/api/3/issue/OLD-1', { status: 301, headers: { location: '/jira-sandbox/rest/api/3/issue/OLD-1' } });
    vendor.on('GET', '/jira-sandbox/rest/api/3/issue/OLD-1', { body: { key: 'OLD-1', fields: { summary: 'sandbox' } } });
    const error = await client(`${vendor.url}/jira`, { authorization: 'Bearer canary-jira-token' })
      .send(toolContext(), { method: 'GET', path: '/rest/api/3/issue/OLD-1' })
      .catch((e: unknown) => e);
    expect(error).to.have.property('code', 'upstream_redirect_refused');
    expect((error as Error).message).to.equal(
      `CI redirected GET /rest/api/3/issue/OLD-1 to /jira-sandbox/rest/api/3/issue/OLD-1; it is not followed: it is outside ${vendor.url}/jira.`,
    );
    expect(vendor.requests.map((r) => r.path)).to.deep.equal(['/jira/rest/api/3/issue/OLD-1']);
  });

  it('never follows a redirected write, not even on its own origin: the body is not sent to the new path', async () => {
    for (const status of [307, 308]) {
      vendor.reset();
      vendor.on('POST', '/api/v2/project/gh/acme/app/pipeline', { status, headers: { location: '/api/v2/project/gh/acme/admin/pipeline' } });
      const error = await client(vendor.url, { 'circle-token': 'CCIPAT_x' })
        .send(toolContext(), { method: 'POST', path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } })
        .catch((e: unknown) => e);
      expect(error).to.include({ code: 'upstream_redirect_refused', status });
      expect((error as Error).message).to.contain('it is not followed: a write is never redirected');
      expect(vendor.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['POST /api/v2/project/gh/acme/app/pipeline']);
    }
  });

  it('hands over the credential without its scheme too, which the scrubber then finds in an echo', () => {
    // `bot@acme.example:` is 17 characters: base64 of the pair does not hold base64 of the token alone (it
    // would if the prefix were a multiple of 3 long), so only the scheme-less form can find it.
    const basic = Buffer.from('bot@acme.example:ATATT3x-canary-token').toString('base64');
    const jira = client(vendor.url, { authorization: `Basic ${basic}` });
    expect(jira.secretForms()).to.deep.equal([`Basic ${basic}`, basic]);
    const scrub = secretScrubber(['ATATT3x-canary-token'], jira.secretForms());
    expect(scrub(`{"echo":"${basic}"}`)).to.equal('{"echo":"[REDACTED]"}');
  });

  it('keys cached answers by the credential itself: same labels, host and environment, other secret, other key', () => {
    const request = { method: 'GET', url: new URL(`${vendor.url}/api/v2/me`) };
    const alpha = client(vendor.url, {}, 'bot@acme.example\0token-alpha');
    const beta = client(vendor.url, {}, 'bot@acme.example\0token-beta');
    const otherUser = client(vendor.url, {}, 'ops@acme.example\0token-alpha');
    const again = client(vendor.url, {}, 'bot@acme.example\0token-alpha');
    expect({ ...alpha.identity, fingerprint: '' }).to.deep.equal({ ...beta.identity, fingerprint: '' });
    expect(cacheKey(alpha.identity, request)).not.to.equal(cacheKey(beta.identity, request));
    expect(cacheKey(alpha.identity, request)).not.to.equal(cacheKey(otherUser.identity, request));
    expect(cacheKey(alpha.identity, request)).to.equal(cacheKey(again.identity, request));
    expect(JSON.stringify(alpha.identity)).not.to.contain('token-alpha');
  });
});
