import { expect } from 'chai';
import { decodedForms, invalidEscapeRun } from '../../core/http/path-guards.js';
import { MockUpstream, type RecordedRequest } from '../../server/testing/mock-upstream.js';
import type { VendorCanaries } from './canaries.js';

/** Where each built-in vendor's API lives on its mock, and the credential header it must carry. */
interface VendorMock {
  mock: MockUpstream;
  /** Every request path must start with one of these (the vendor's API boundary). */
  prefixes: string[];
  authorization(request: RecordedRequest): string | undefined;
  credential: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * One loopback mock per built-in vendor (GitHub, CircleCI, Jira, Confluence, Bitbucket), each answering any
 * path with 200 JSON that echoes what it received, plus an "evil" mock that every path trick aims at and that
 * must never be reached. `env` points the server at them with canary credentials.
 */
export class VendorMocks {
  private constructor(
    readonly vendors: Record<'github' | 'circleci' | 'jira' | 'confluence' | 'bitbucket', VendorMock>,
    readonly evil: MockUpstream,
    private readonly canaries: VendorCanaries,
  ) {}

  static async start(canaries: VendorCanaries): Promise<VendorMocks> {
    const start = async (): Promise<MockUpstream> => echoEverything(await MockUpstream.start());
    const basic = Buffer.from(`${canaries.atlassianEmail}:${canaries.atlassian}`).toString('base64');
    const bearer = (r: RecordedRequest): string | undefined => r.headers.authorization;
    const vendors = {
      github: { mock: await start(), prefixes: ['/repos/', '/'], authorization: bearer, credential: `Bearer ${canaries.github}` },
      circleci: {
        mock: await start(),
        prefixes: ['/api/v2/', '/api/v2?', '/api/v1.1/project/'],
        authorization: (r: RecordedRequest) => r.headers['circle-token'] as string | undefined,
        credential: canaries.circleci,
      },
      jira: { mock: await start(), prefixes: ['/rest/'], authorization: bearer, credential: `Basic ${basic}` },
      confluence: { mock: await start(), prefixes: ['/wiki/'], authorization: bearer, credential: `Basic ${basic}` },
      bitbucket: { mock: await start(), prefixes: ['/2.0/'], authorization: bearer, credential: `Basic ${basic}` },
    };
    return new VendorMocks(vendors, await MockUpstream.start(), canaries);
  }

  /** Settings for a server using every built-in vendor against these mocks. */
  env(): Record<string, string> {
    const c = this.canaries;
    return {
      GITHUB_API_URL: this.vendors.github.mock.url,
      GITHUB_TOKEN: c.github,
      CIRCLECI_BASE_URL: this.vendors.circleci.mock.url,
      CIRCLECI_TOKEN: c.circleci,
      JIRA_BASE_URL: this.vendors.jira.mock.url,
      CONFLUENCE_BASE_URL: this.vendors.confluence.mock.url,
      BITBUCKET_BASE_URL: this.vendors.bitbucket.mock.url,
      ATLASSIAN_USER_EMAIL: c.atlassianEmail,
      ATLASSIAN_API_TOKEN: c.atlassian,
      ATLASSIAN_BITBUCKET_USERNAME: c.bitbucketUser,
      ATLASSIAN_BITBUCKET_APP_PASSWORD: c.bitbucketAppPassword,
      MCP_ADMIN_TOKEN: c.admin,
      // ci_wait polls these mocks (which show no check) a few times before it answers: fast, not every 10 s.
      CI_WAIT_POLL_MS: '10',
    };
  }

  /** Requests received so far by every mock, the evil one included. */
  requestCount(): number {
    return Object.values(this.vendors).reduce((n, v) => n + v.mock.requests.length, 0) + this.evil.requests.length;
  }

  /**
   * Every request any vendor mock received stayed inside that vendor's API boundary and carried that vendor's
   * credential; the evil mock received nothing at all.
   */
  expectEveryRequestInBounds(): void {
    expect(
      this.evil.requests.map((r) => `${r.method} ${r.url}`),
      'requests that reached the evil origin',
    ).to.deep.equal([]);
    for (const [name, vendor] of Object.entries(this.vendors)) {
      for (const request of vendor.mock.requests) {
        const where = `${name} ${request.method} ${request.url}`;
        expect(
          vendor.prefixes.some((p) => request.url.startsWith(p)),
          `${where} left the ${name} API boundary`,
        ).to.equal(true);
        expect(
          request.path.split('/').some((s) => s === '..' || s === '.'),
          `${where} climbs`,
        ).to.equal(false);
        // Nothing a Tomcat-based server (Atlassian Data Center) would read differently: no path parameters, no
        // escapes that are not valid UTF-8, however often encoded.
        expect(
          decodedForms(request.path)?.some((form) => form.includes(';') || invalidEscapeRun(form) !== undefined),
          `${where} has path parameters or invalid escapes`,
        ).to.equal(false);
        expect(vendor.authorization(request), `${where} credential`).to.equal(vendor.credential);
      }
    }
  }

  reset(): void {
    for (const vendor of Object.values(this.vendors)) vendor.mock.requests.length = 0;
    this.evil.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const vendor of Object.values(this.vendors)) await vendor.mock.close();
    await this.evil.close();
  }
}

/** Any method, any path: 200 with a JSON body echoing the request (so odd input also travels back as output). */
function echoEverything(mock: MockUpstream): MockUpstream {
  for (const method of METHODS) {
    mock.on(method, /.*/, (request) => {
      let received: unknown = request.body;
      try {
        received = request.body === '' ? null : JSON.parse(request.body);
      } catch {
        // not JSON: echoed as the string it was
      }
      return { body: { ok: true, method: request.method, path: request.path, query: Object.fromEntries(request.query), received } };
    });
  }
  return mock;
}
