import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream, type RecordedRequest } from '../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { canary } from '../support/canaries.js';

/** Everything a caller could see of a result: text, structured value and `_meta`. */
const seen = (result: CallToolResult): string => JSON.stringify(result);

/**
 * An upstream that echoes the request headers back (as httpbin, a debugging proxy or a misconfigured gateway
 * do): the credential comes back in the form it travelled in, and expressions can work on it.
 */
function echoHeaders(request: RecordedRequest): { body: unknown } {
  return { body: { auth: request.headers.authorization, headers: request.headers } };
}

describe('hardening: secrets in derived forms (echoed Basic values, URL-encoding, jq, cuts)', () => {
  let jira: MockUpstream;
  let github: MockUpstream;
  let kernel: TestKernel;
  // Shaped like real ones: an Atlassian token has characters URL-encoding changes.
  const atlassian = `${canary('ATATT3x')}+/Zq=`;
  const ghToken = canary('ghp_');
  const basic = Buffer.from(`derived-bot@example.com:${atlassian}`).toString('base64');

  before(async () => {
    jira = await MockUpstream.start();
    github = await MockUpstream.start();
    kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['jira', 'github'] }) },
      env: {
        JIRA_BASE_URL: jira.url,
        ATLASSIAN_USER_EMAIL: 'derived-bot@example.com',
        ATLASSIAN_API_TOKEN: atlassian,
        GITHUB_API_URL: github.url,
        GITHUB_TOKEN: ghToken,
        MCP_STRUCTURED_OUTPUT: 'true',
        // github_get is in the github.repos toolset, which is not served by default.
        MCP_TOOLSETS: 'all',
      },
    });
  });
  after(async () => {
    await kernel?.close();
    await jira?.close();
    await github?.close();
  });
  beforeEach(() => {
    jira.reset();
    github.reset();
  });

  it('redacts the Basic value base64(email:token) an upstream echoes back, in text and structured content', async () => {
    jira.on('GET', '/rest/api/3/myself', echoHeaders);
    for (const outputFormat of ['toon', 'json']) {
      const result = await kernel.call('jira_get', { path: '/rest/api/3/myself', outputFormat });
      expect(seen(result)).not.to.contain(basic.slice(0, 20));
      expect(seen(result)).not.to.contain(basic.slice(-20));
      expect(textOf(result)).to.match(/^ *"?auth"?: "\[REDACTED\]",?$/m);
    }
    expect(jira.requests[0]!.headers.authorization).to.equal(`Basic ${basic}`);
  });

  it('redacts a token echoed URL-encoded, in either case of hex', async () => {
    jira.on('GET', '/rest/api/3/myself', () => ({
      body: {
        next: `https://x.example/?t=${encodeURIComponent(atlassian)}`,
        lower: encodeURIComponent(atlassian).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
      },
    }));
    const result = await kernel.call('jira_get', { path: '/rest/api/3/myself', outputFormat: 'json' });
    expect(seen(result)).not.to.contain(encodeURIComponent(atlassian).slice(0, 20));
    expect(JSON.parse(textOf(result))).to.deep.equal({ next: 'https://x.example/?t=[REDACTED]', lower: '[REDACTED]' });
  });

  it('lets no jq expression see a secret: reverse(auth) shows no reversed token', async () => {
    github.on('GET', '/user', echoHeaders);
    const result = await kernel.call('github_get', { path: '/user', jq: 'reverse(auth)' });
    const reversed = [...`Bearer ${ghToken}`].reverse().join('');
    expect(seen(result)).not.to.contain(reversed.slice(0, 16));
    expect(textOf(result)).to.equal('"]DETCADER["');
  });

  it('redacts a token a jq expression puts together from parts the upstream sent apart, in text and structured content', async () => {
    const half = Math.floor(atlassian.length / 2);
    jira.on('GET', '/rest/api/3/myself', () => ({ body: { head: atlassian.slice(0, half), tail: atlassian.slice(half) } }));
    const client = await kernel.connect();
    const result = (await client.callTool({
      name: 'jira_get',
      arguments: { path: '/rest/api/3/myself', jq: "join('', [head, tail])", outputFormat: 'json' },
    })) as CallToolResult;
    expect(seen(result)).not.to.contain(atlassian);
    expect(result.structuredContent).to.deep.equal({ data: '[REDACTED]' });
    expect(textOf(result)).to.equal('"[REDACTED]"');
  });

  it('is no oracle: starts_with(auth, <a true prefix>) answers as a wrong prefix does', async () => {
    github.on('GET', '/user', echoHeaders);
    const answer = async (prefix: string): Promise<string> => textOf(await kernel.call('github_get', { path: '/user', jq: `starts_with(auth, '${prefix}')` }));
    expect(await answer(`Bearer ${ghToken.slice(0, 12)}`)).to.equal('false');
    expect(await answer('Bearer ghp_zzzz')).to.equal('false');
    expect(await answer('[REDACTED]')).to.equal('true');
  });

  it('scrubs before the 40,000-character cut, so no head of a secret is left at the edge, nor in the saved file', async () => {
    // One long line with the token across character 40,000: the cut lands inside it.
    github.on('GET', '/repos/acme/app/readme', () => ({ body: { line: `${'x'.repeat(39_975)}${ghToken}${'y'.repeat(200)}` } }));
    const result = await kernel.call('github_get', { path: '/repos/acme/app/readme' });
    const text = textOf(result);
    expect(text).to.contain('## Response Truncated');
    expect(seen(result)).not.to.contain(ghToken.slice(0, 10));
    const file = /saved at: `([^`]+)`/.exec(text)![1]!;
    const saved = readFileSync(file, 'utf8');
    expect(saved).to.contain('[REDACTED]').and.not.to.contain(ghToken.slice(0, 10));
  });

  it('scrubs before the 4 KiB cap of an upstream error body, so no head of a secret is left at its edge', async () => {
    jira.on('GET', '/rest/api/3/issue/PLAT-1', { status: 400, headers: { 'content-type': 'text/plain' }, body: `${'e'.repeat(4080)}${atlassian} and more` });
    const result = await kernel.call('jira_get', { path: '/rest/api/3/issue/PLAT-1' });
    const text = textOf(result);
    expect(text).to.contain('Code: upstream_http_error').and.to.contain('... (truncated:');
    expect(text).not.to.contain(atlassian.slice(0, 10));
  });
});

describe('hardening: the Basic credential echoed without its scheme (base64(email:token) alone)', () => {
  let jira: MockUpstream;
  let kernel: TestKernel;
  const token = `${canary('ATATT3x')}+/Zq=`;
  // 17 characters before the token: base64 of the pair does not hold base64 of the token alone (with a prefix a
  // multiple of 3 long, as derived-bot@example.com: is, it would, and scrubbing that would hide a lost form).
  const email = 'bot@acme.example';
  const pair = Buffer.from(`${email}:${token}`).toString('base64');

  before(async () => {
    jira = await MockUpstream.start();
    kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['jira'] }) },
      env: { JIRA_BASE_URL: jira.url, ATLASSIAN_USER_EMAIL: email, ATLASSIAN_API_TOKEN: token, MCP_STRUCTURED_OUTPUT: 'true' },
    });
  });
  after(async () => {
    await kernel?.close();
    await jira?.close();
  });

  it('redacts it whole, in text and structured content', async () => {
    expect(`${email}:`.length % 3).not.to.equal(0);
    expect(pair).not.to.contain(Buffer.from(token).toString('base64'));
    jira.on('GET', '/rest/api/3/myself', (request) => ({ body: { credentials: String(request.headers.authorization).replace(/^Basic /, '') } }));
    const result = await kernel.call('jira_get', { path: '/rest/api/3/myself', outputFormat: 'json' });
    expect(JSON.parse(textOf(result))).to.deep.equal({ credentials: '[REDACTED]' });
    expect(seen(result)).not.to.contain(pair.slice(0, 12));
    expect(seen(result)).not.to.contain(pair.slice(-12));
  });
});
