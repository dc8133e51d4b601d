import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MockUpstream, type MockReply } from '../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from './test-kernel.js';

/** A vendor read tool, and how its API answers, for the failure cases every vendor must handle alike. */
export interface VendorUnderTest {
  /** Names the describe block: `GitHub (github_list_workflow_runs)`. */
  title: string;
  /** Config file content loading the vendor plugin. */
  config: string;
  /** Settings pointing the vendor at the mock, with the secret. */
  env(mockUrl: string): Record<string, string>;
  secret: string;
  tool: string;
  args: Record<string, unknown>;
  /** The path the call reaches on the mock. */
  path: string;
  /** A successful body of that path, in the vendor's shape. */
  ok(): unknown;
  /** The vendor's own error body for a status. */
  errorBody(status: number): unknown;
}

/** Upstream failures, each a clear error result (or a transparent retry), checked against one vendor. */
export function describeUpstreamErrors(v: VendorUnderTest): void {
  describe(`${v.title}: upstream failures become clear error results`, () => {
    let mock: MockUpstream;
    let elsewhere: MockUpstream;
    let kernel: TestKernel;
    /** Small limits: a 1 s request timeout and a 4 KiB response cap. */
    let limited: TestKernel;

    before(async () => {
      mock = await MockUpstream.start();
      elsewhere = await MockUpstream.start();
      const configFile = { content: v.config };
      // A still clock: two renderings of the same answer are byte-identical (circleci_get shows fetchedAt).
      const clock = { now: () => Date.UTC(2026, 9, 7, 16, 20, 11, 402) };
      // Without the rate-limit governor: these are what one answer becomes (a 429 within its bound would be
      // waited out, and a far one would hold every later case; test/core/http/rate-limit-governor.test.ts).
      const ungoverned = { MCP_FENCE: 'false', MCP_RATE_LIMIT_GOVERNOR: 'false' };
      kernel = await startTestKernel({ configFile, env: { ...v.env(mock.url), ...ungoverned }, clock });
      limited = await startTestKernel({
        configFile,
        env: { ...v.env(mock.url), ...ungoverned, MCP_REQUEST_TIMEOUT_MS: '1000', MCP_MAX_RESPONSE_BYTES: '4096' },
        clock,
      });
    });
    after(async () => {
      await kernel.close();
      await limited.close();
      await mock.close();
      await elsewhere.close();
    });
    beforeEach(() => {
      mock.reset();
      elsewhere.reset();
    });

    const call = (on: TestKernel = kernel): Promise<CallToolResult> => on.call(v.tool, v.args);
    const failure = async (on?: TestKernel): Promise<string> => {
      const result = await call(on);
      expect(result.isError, textOf(result)).to.equal(true);
      return textOf(result);
    };
    /** Replies in turn, the last one repeating. */
    const sequence = (...replies: MockReply[]): void => {
      let n = 0;
      mock.on('GET', v.path, () => replies[Math.min(n++, replies.length - 1)]!);
    };

    for (const status of [401, 404, 422]) {
      it(`${status}: the status, what to check and the vendor's body; not retried`, async () => {
        mock.on('GET', v.path, { status, body: v.errorBody(status) });
        const text = await failure();
        expect(text).to.contain('Code: upstream_http_error');
        expect(text).to.contain(`HTTP Status: ${status}`);
        expect(text).to.contain(`Raw API Response:\n${JSON.stringify(v.errorBody(status), null, 2)}`);
        expect(mock.requests).to.have.length(1);
      });
    }

    it('500: a server error, not retried (it is usually a bug, not a blip)', async () => {
      mock.on('GET', v.path, { status: 500, body: v.errorBody(500) });
      expect(await failure()).to.contain('Code: upstream_server_error\nHTTP Status: 500');
      expect(mock.requests).to.have.length(1);
    });

    for (const status of [502, 503, 504]) {
      it(`${status} then 200: retried, and the call succeeds`, async () => {
        sequence({ status, body: '<html><body><h1>' + status + ' Bad Gateway</h1></body></html>', headers: { 'content-type': 'text/html' } }, { body: v.ok() });
        const result = await call();
        expect(result.isError, textOf(result)).to.equal(undefined);
        expect(mock.requests).to.have.length(2);
      });
    }

    it('503 every time: retried twice (MCP_UPSTREAM_RETRIES), then an error naming the status', async () => {
      mock.on('GET', v.path, { status: 503, body: v.errorBody(503) });
      const text = await failure();
      expect(text).to.contain('Code: upstream_server_error');
      expect(text).to.contain('HTTP Status: 503');
      expect(mock.requests).to.have.length(3);
    });

    it('429 with Retry-After in seconds: says when to retry; not retried', async () => {
      mock.on('GET', v.path, { status: 429, headers: { 'retry-after': '30' }, body: v.errorBody(429) });
      const text = await failure();
      expect(text).to.match(/rate limit exceeded\. Retry after 30 seconds \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\./);
      expect(text).to.contain('Code: upstream_rate_limited\nHTTP Status: 429\nRetry After: 30 seconds');
      expect(mock.requests).to.have.length(1);
    });

    it('429 with Retry-After as an HTTP date: converted to seconds from now', async () => {
      mock.on('GET', v.path, { status: 429, headers: { 'retry-after': new Date(Date.now() + 120_000).toUTCString() }, body: v.errorBody(429) });
      expect(await failure()).to.match(/Retry After: 1(19|20) seconds/);
    });

    it('429 without Retry-After: says to wait before retrying', async () => {
      mock.on('GET', v.path, { status: 429, body: v.errorBody(429) });
      const text = await failure();
      expect(text).to.contain('rate limit exceeded. Wait a minute before retrying.');
      expect(text).to.contain('Code: upstream_rate_limited');
    });

    it('an error body over 4 KiB is cut to 4 KiB, with its full size named', async () => {
      const body = { message: 'Validation Failed', errors: Array.from({ length: 200 }, (_, i) => ({ resource: 'Run', field: `field_${i}`, code: 'invalid' })) };
      mock.on('GET', v.path, { status: 422, body });
      const text = await failure();
      const raw = text.split('Raw API Response:\n')[1]!;
      const full = JSON.stringify(body, null, 2);
      expect(raw).to.equal(`${full.slice(0, 4096)}\n... (truncated: ${Buffer.byteLength(full)} bytes in all)`);
    });

    it('a reset before any header, then success: retried transparently', async () => {
      sequence({ reset: 'before-headers' }, { body: v.ok() });
      const result = await call();
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(mock.requests).to.have.length(2);
    });

    it('resets before any header every time: an "unreachable" error after the retries', async () => {
      mock.on('GET', v.path, { reset: 'before-headers' });
      const text = await failure();
      expect(text).to.contain('Code: upstream_unreachable');
      expect(text).to.match(/could not be reached for GET .* \((ECONNRESET|UND_ERR_SOCKET)\)/);
      expect(mock.requests).to.have.length(3);
    });

    it('a connection reset in the middle of the body: retried, then an error, never half a result', async () => {
      mock.on('GET', v.path, { body: v.ok(), reset: 'mid-body' });
      const text = await failure();
      expect(text).to.contain('Code: upstream_unreachable');
      expect(mock.requests).to.have.length(3);
    });

    it('no answer within MCP_REQUEST_TIMEOUT_MS: a timeout error naming the setting', async () => {
      mock.on('GET', v.path, { body: v.ok(), delayMs: 3000 });
      const text = await failure(limited);
      expect(text).to.contain('Code: upstream_timeout');
      expect(text).to.contain('within 1000 ms (MCP_REQUEST_TIMEOUT_MS)');
    });

    it('a slow body that arrives in pieces completes normally', async () => {
      mock.on('GET', v.path, { body: v.ok(), dripMs: 25, dripChunks: 8 });
      const dripped = await call();
      mock.reset();
      mock.on('GET', v.path, { body: v.ok() });
      const whole = await call();
      expect(dripped.isError, textOf(dripped)).to.equal(undefined);
      expect(textOf(dripped)).to.equal(textOf(whole));
    });

    it('truncated JSON with 200: an invalid-body error, not a result', async () => {
      const json = JSON.stringify(v.ok());
      mock.on('GET', v.path, { headers: { 'content-type': 'application/json; charset=utf-8' }, body: json.slice(0, Math.floor(json.length / 2)) });
      const text = await failure();
      expect(text).to.contain('Code: upstream_invalid_body');
      expect(text).to.contain('with a body that is not JSON (application/json)');
    });

    it('an HTML page with 200 (a proxy or login page): an invalid-body error showing the page', async () => {
      const page = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form action="/login"></form></body></html>';
      mock.on('GET', v.path, { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page });
      const text = await failure();
      expect(text).to.contain('Code: upstream_invalid_body');
      expect(text).to.contain('(text/html)');
      expect(text).to.contain(`Raw API Response:\n${page}`);
    });

    it('a null body with 200: an empty-body error', async () => {
      mock.on('GET', v.path, { headers: { 'content-type': 'application/json' }, body: 'null' });
      const text = await failure();
      expect(text).to.contain('Code: upstream_empty_body');
      expect(text).to.contain('with a null body where JSON was expected');
    });

    it('an empty body with 200: an empty-body error', async () => {
      mock.on('GET', v.path, { headers: { 'content-type': 'application/json' }, body: '' });
      const text = await failure();
      expect(text).to.contain('Code: upstream_empty_body');
      expect(text).to.contain('with an empty body where JSON was expected');
    });

    it('a body over MCP_MAX_RESPONSE_BYTES (announced by Content-Length): refused before reading it', async () => {
      const body = JSON.stringify({ padding: 'x'.repeat(10_000) });
      mock.on('GET', v.path, { headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body });
      const text = await failure(limited);
      expect(text).to.contain('Code: upstream_too_large');
      expect(text).to.contain(`larger than MCP_MAX_RESPONSE_BYTES (4096 bytes; it sent ${body.length} bytes)`);
    });

    it('a body over MCP_MAX_RESPONSE_BYTES without Content-Length: stopped while reading', async () => {
      mock.on('GET', v.path, { body: { padding: 'x'.repeat(10_000) }, dripMs: 1, dripChunks: 20 });
      const text = await failure(limited);
      expect(text).to.contain('Code: upstream_too_large');
      expect(text).to.contain('(4096 bytes; it sent more than that)');
    });

    it('a redirect to another origin is refused, and nothing is sent there', async () => {
      mock.on('GET', v.path, { status: 307, headers: { location: `${elsewhere.url}${v.path}` } });
      const text = await failure();
      expect(text).to.contain('Code: upstream_redirect_refused');
      expect(elsewhere.requests).to.have.length(0);
    });

    it('the secret never appears in a result, even when the vendor echoes it', async () => {
      mock.on('GET', v.path, { status: 401, body: { message: `Bad credentials: ${v.secret}` } });
      const text = await failure();
      expect(text).not.to.contain(v.secret);
      expect(text).to.contain('[REDACTED]');
    });
  });
}
