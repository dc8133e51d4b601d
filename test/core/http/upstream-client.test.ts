import { expect } from 'chai';
import type { UpstreamClient, UpstreamClientOptions } from '../../../core/http/upstream-client.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { cacheKey } from '../../../plugins/cache/cache-entry.js';
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
    const ci = client(vendor.url, headers);
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
