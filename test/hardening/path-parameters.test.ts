import { expect } from 'chai';
import Type from 'typebox';
import type { PreparedRequest, UpstreamBinding, UpstreamRequest } from '../../core/plugin/upstream-types.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { tempFile } from '../support/enterprise-fixture.js';

/** The review's policy: the user directory is off limits; issue writes are allowed; reads are. */
const POLICY = `version: 1
rules:
  - id: no-user-directory
    effect: deny
    match: { paths: ["/rest/api/3/user/*", "/rest/api/3/user", "/wiki/rest/api/user/*", "/2.0/users/*"] }
  - id: issue-writes
    effect: allow
    match: { methods: [POST, PUT], paths: ["/rest/api/3/issue/*"] }
  - id: reads
    effect: allow
    match: { readOnly: true }
`;

/** A third-party binding that checks nothing itself: the kernel's own check must still apply to it. */
class UncheckedBinding implements UpstreamBinding {
  readonly identity = Object.freeze({ vendor: 'lax', credential: 'lax', host: 'lax.invalid', environment: 'production', fingerprint: '0'.repeat(32) });
  prepare(request: UpstreamRequest): PreparedRequest {
    return { method: request.method, path: request.path, url: new URL(`https://lax.invalid${request.path}`) };
  }
}

const LaxArgs = Type.Object({ path: Type.String() }, { additionalProperties: false });

@Plugin({ name: 'lax', version: '1.0.0' })
class LaxPlugin implements DevtoolsPlugin {
  readonly upstream = new UncheckedBinding();

  @Tool({
    name: 'lax_get',
    title: 'Lax GET',
    description: 'A tool whose binding checks nothing.',
    annotations: { readOnlyHint: true },
    input: LaxArgs,
    route: (a: { path: string }) => ({ method: 'GET', path: a.path }),
  })
  async get(ctx: ToolContext): Promise<ToolOutput> {
    return { value: { reached: ctx.route.path } };
  }
}

describe('hardening: path parameters, overlong escapes and redirects against a policy (Jira, Confluence, Bitbucket Data Center)', () => {
  let jira: MockUpstream;
  let confluence: MockUpstream;
  let bitbucket: MockUpstream;
  let kernel: TestKernel;
  const requests = (): string[] => [jira, confluence, bitbucket].flatMap((m) => m.requests.map((r) => `${r.method} ${r.url}`));

  before(async () => {
    [jira, confluence, bitbucket] = [await MockUpstream.start(), await MockUpstream.start(), await MockUpstream.start()];
    kernel = await startTestKernel({
      plugins: [LaxPlugin],
      configFile: { content: JSON.stringify({ plugins: ['jira', 'confluence', 'bitbucket'] }) },
      env: {
        JIRA_BASE_URL: jira.url,
        CONFLUENCE_BASE_URL: confluence.url,
        BITBUCKET_BASE_URL: bitbucket.url,
        ATLASSIAN_USER_EMAIL: 'bot@example.com',
        ATLASSIAN_API_TOKEN: 'path-params-token-5e1d',
        MCP_POLICY_FILE: tempFile('policy.yaml', POLICY),
      },
    });
  });
  after(async () => {
    await kernel?.close();
    for (const mock of [jira, confluence, bitbucket]) await mock?.close();
  });
  beforeEach(() => {
    for (const mock of [jira, confluence, bitbucket]) mock.reset();
  });

  const refused: Array<[string, string]> = [
    ['jira_get', '/rest/api/3/user;x=1/search'],
    ['jira_get', '/rest/api/3/x/..;/user/search'],
    ['jira_post', '/rest/api/3/issue/x/..;/..;/user'],
    ['jira_put', '/rest/api/3/issue/x/.;x/../../user'],
    ['jira_post', '/rest/api/3/issue/x/%2e%2e;/%2e%2e;/user'],
    ['jira_post', '/rest/api/3/issue/%c0%ae%c0%ae/%c0%ae%c0%ae/user'],
    ['conf_get', '/wiki/rest/api/space;v=1/../user/current'],
    ['conf_get', '/wiki/%2e%2e%2f%c0%ae/rest/api/3/myself'],
    ['bb_get', '/2.0/repositories/acme/..;/..;/users/jdoe'],
    ['lax_get', '/rest/api/3/x/..;/user/search'],
    ['lax_get', '/a/%c0%ae%c0%ae/b'],
  ];
  for (const [tool, path] of refused) {
    it(`${tool} ${path}: refused as invalid_path, nothing sent, for built-in and third-party bindings alike`, async () => {
      const body = tool.endsWith('_post') || tool.endsWith('_put') ? { body: { name: 'x' } } : {};
      const result = await kernel.call(tool, { path, ...body });
      expect(textOf(result)).to.match(/Code: invalid_path$/);
      expect(requests()).to.deep.equal([]);
    });
  }

  it('still decides the plain forms of those paths by the rules (the controls)', async () => {
    jira.on('POST', '/rest/api/3/issue/PLAT-1/comment', { status: 201, body: { id: '1' } });
    expect(textOf(await kernel.call('jira_get', { path: '/rest/api/3/user/search' }))).to.contain('Code: policy_denied');
    expect(textOf(await kernel.call('jira_post', { path: '/rest/api/3/user', body: { name: 'x' } }))).to.contain('Code: policy_denied');
    expect(textOf(await kernel.call('jira_post', { path: '/rest/api/3/issue/PLAT-1/comment', body: { body: 'x' } }))).to.equal('id: "1"');
    expect(requests()).to.deep.equal(['POST /rest/api/3/issue/PLAT-1/comment']);
  });

  it('decides an encoded path by what it reaches, end to end (a second test of policy path decoding)', async () => {
    for (const path of ['/rest/api/3/%75ser/search', '/rest/api/3/%2575ser/search', '/rest/api/3//USER/search/']) {
      const result = await kernel.call('jira_get', { path });
      expect(result._meta?.decision, path).to.deep.include({ effect: 'deny', ruleId: 'no-user-directory' });
    }
    expect(requests()).to.deep.equal([]);
  });

  it('decides a same-origin redirect of a read by the policy again: a redirect into the user directory is not followed', async () => {
    jira.on('GET', '/rest/api/3/issue/OLD-7', { status: 301, headers: { location: '/rest/api/3/user/search?query=a' } });
    const result = await kernel.call('jira_get', { path: '/rest/api/3/issue/OLD-7' });
    expect(textOf(result)).to.match(
      /^Error: jira_get \(GET \/rest\/api\/3\/issue\/OLD-7\) was redirected to \/rest\/api\/3\/user\/search\?query=a, which the policy refuses for local: Rule "no-user-directory" denies this call\. \(rule no-user-directory; policy sha256:[0-9a-f]{16}\)\nCode: policy_denied$/,
    );
    expect(result._meta?.decision).to.deep.include({ effect: 'deny', ruleId: 'no-user-directory' });
    expect(requests()).to.deep.equal(['GET /rest/api/3/issue/OLD-7']);
  });

  it('follows a redirect of a read to a path the policy allows', async () => {
    jira.on('GET', '/rest/api/3/issue/OLD-7', { status: 302, headers: { location: `${jira.url}/rest/api/3/issue/10234` } });
    jira.on('GET', '/rest/api/3/issue/10234', { body: { key: 'PLAT-7' } });
    expect(textOf(await kernel.call('jira_get', { path: '/rest/api/3/issue/OLD-7', jq: 'key' }))).to.equal('PLAT-7');
    expect(requests()).to.deep.equal(['GET /rest/api/3/issue/OLD-7', 'GET /rest/api/3/issue/10234']);
  });

  for (const [location, why] of [
    ['/wiki/rest/api/user/current', 'is not a Jira API path'],
    ['/rest/api/3/x/..;/user', 'it contains ";"'],
    ['/rest/api/3/%c0%ae%c0%ae/user', 'not valid UTF-8'],
  ]) {
    it(`does not follow a same-origin redirect of a read to ${location} (${why})`, async () => {
      jira.on('GET', '/rest/api/3/issue/OLD-7', { status: 302, headers: { location } });
      const text = textOf(await kernel.call('jira_get', { path: '/rest/api/3/issue/OLD-7' }));
      expect(text).to.contain('Code: upstream_redirect_refused').and.to.contain(why);
      expect(requests()).to.deep.equal(['GET /rest/api/3/issue/OLD-7']);
    });
  }

  for (const status of [301, 302, 303, 307, 308]) {
    it(`never follows a redirect (${status}) of a write, even to a path the policy allows`, async () => {
      jira.on('POST', '/rest/api/3/issue/PLAT-1/comment', { status, headers: { location: '/rest/api/3/issue/PLAT-2/comment' } });
      const text = textOf(await kernel.call('jira_post', { path: '/rest/api/3/issue/PLAT-1/comment', body: { body: 'x' } }));
      expect(text).to.contain('it is not followed: a write is never redirected').and.to.contain(`Code: upstream_redirect_refused\nHTTP Status: ${status}`);
      expect(requests()).to.deep.equal(['POST /rest/api/3/issue/PLAT-1/comment']);
    });
  }
});
