import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { jiraSearchPage } from '../../fixtures/atlassian/generated.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { ACCOUNT, basicHeader, callTool, savedFiles } from '../atlassian/atlassian-calls.js';

describe('jira_* end to end (SDK client over stdio, loopback Jira)', function () {
  this.timeout(30_000);
  let mock: MockUpstream;
  let session: StdioSession;
  let rawDir: string;

  before(async () => {
    mock = await MockUpstream.start();
    const cwd = mkdtempSync(join(tmpdir(), 'jira-e2e-'));
    rawDir = join(cwd, 'raw');
    // Without the rate-limit governor: the 429 case is what one answer becomes, and holds no later case.
    session = await connectStdio({ cwd, env: { ...ACCOUNT, JIRA_BASE_URL: mock.url, CONFLUENCE_BASE_URL: mock.url, MCP_RATE_LIMIT_GOVERNOR: 'false' } });
  });
  after(async () => {
    await session?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('lists jira_get read-only and jira_delete destructive, with the reference arguments', async () => {
    const tools = new Map((await session.client.listTools()).tools.map((t) => [t.name, t]));
    for (const verb of ['get', 'post', 'put', 'patch', 'delete']) expect(tools.has(`jira_${verb}`), verb).to.equal(true);
    expect(tools.get('jira_get')!.annotations).to.include({ readOnlyHint: true, destructiveHint: false });
    expect(tools.get('jira_post')!.annotations).to.include({ readOnlyHint: false, destructiveHint: false });
    expect(tools.get('jira_delete')!.annotations).to.include({ readOnlyHint: false, destructiveHint: true });
    expect(tools.get('jira_post')!.inputSchema.required).to.have.members(['path', 'body']);
    expect(tools.get('jira_get')!.inputSchema.required).to.deep.equal(['path']);
  });

  it('jira_get sends Basic email:token and asks for JSON, and shows the body as TOON', async () => {
    mock.on('GET', '/rest/api/3/myself', jsonReply(payload('jira/myself.json')));
    const { text, isError } = await callTool(session.client, 'jira_get', { path: '/rest/api/3/myself', jq: '{name: displayName, tz: timeZone}' });
    expect(isError).to.equal(false);
    expect(text).to.equal('name: Mia Krystof\ntz: Europe/Prague');
    const [request] = mock.requests;
    expect(request!.headers.authorization).to.equal(basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN));
    expect(request!.headers.accept).to.equal('application/json');
  });

  it('renders the example of docs/atlassian.md exactly as documented', async () => {
    mock.on('GET', '/rest/api/3/search/jql', jsonReply('{"issues":[{"key":"PROJ-1","fields":{"summary":"Hello, world"}}],"empty":[],"num":1.50}'));
    const whole = await callTool(session.client, 'jira_get', { path: '/rest/api/3/search/jql' });
    expect(whole.text).to.equal('issues[1]:\n  - key: PROJ-1\n    fields:\n      summary: "Hello, world"\nempty: []\nnum: 1.5');
    expect((await callTool(session.client, 'jira_get', { path: '/rest/api/3/search/jql', jq: 'issues[*].key' })).text).to.equal('[1]: PROJ-1');
  });

  it('jira_post sends the body as JSON and renders the answer', async () => {
    mock.on('POST', '/rest/api/3/issue', jsonReply(payload('jira/created-issue.json'), 201));
    const body = { fields: { project: { key: 'PLAT' }, summary: 'Gateway body size', issuetype: { name: 'Task' } } };
    const { text } = await callTool(session.client, 'jira_post', { path: '/rest/api/3/issue', body, jq: 'key' });
    expect(text).to.equal('PLAT-1427');
    expect(JSON.parse(mock.requests[0]!.body)).to.deep.equal(body);
    expect(mock.requests[0]!.headers['content-type']).to.equal('application/json');
  });

  it('jira_put answered 204 shows an empty text in TOON and {} in JSON', async () => {
    mock.on('PUT', '/rest/api/3/issue/PLAT-1421', { status: 204 });
    const toon = await callTool(session.client, 'jira_put', { path: '/rest/api/3/issue/PLAT-1421', body: { fields: { summary: 'New' } } });
    const json = await callTool(session.client, 'jira_put', {
      path: '/rest/api/3/issue/PLAT-1421',
      body: { fields: { summary: 'New' } },
      outputFormat: 'json',
    });
    expect([toon.text, toon.isError, json.text]).to.deep.equal(['', false, '{}']);
    expect(mock.requests.map((r) => r.method)).to.deep.equal(['PUT', 'PUT']);
  });

  it('jira_patch and jira_delete send their methods, with queryParams', async () => {
    mock.on('PATCH', '/rest/api/3/issue/PLAT-1/properties/cfg', jsonReply('{"ok":true}'));
    mock.on('DELETE', '/rest/api/3/issue/PLAT-1427', { status: 204 });
    expect((await callTool(session.client, 'jira_patch', { path: '/rest/api/3/issue/PLAT-1/properties/cfg', body: { value: 1 } })).text).to.equal('ok: true');
    expect((await callTool(session.client, 'jira_delete', { path: '/rest/api/3/issue/PLAT-1427', queryParams: { deleteSubtasks: 'true' } })).text).to.equal('');
    expect(mock.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).to.deep.equal([
      'PATCH /rest/api/3/issue/PLAT-1/properties/cfg {"value":1}',
      'DELETE /rest/api/3/issue/PLAT-1427?deleteSubtasks=true ',
    ]);
  });

  it('appends queryParams after & when the path already has a query, leaving that query as written', async () => {
    mock.on('GET', '/rest/api/3/search/jql', jsonReply('{"issues":[],"isLast":true}'));
    await callTool(session.client, 'jira_get', {
      path: '/rest/api/3/search/jql?fields=summary%2Cstatus',
      queryParams: { jql: 'project = PLAT AND text ~ "a b"', maxResults: '5' },
    });
    expect(mock.requests[0]!.url).to.equal('/rest/api/3/search/jql?fields=summary%2Cstatus&jql=project+%3D+PLAT+AND+text+%7E+%22a+b%22&maxResults=5');
  });

  it('sends a "__proto__" key of the body as given, where the reference server silently drops it', async () => {
    mock.on('PUT', '/rest/api/3/issue/PLAT-1/properties/odd', { status: 204 });
    await callTool(session.client, 'jira_put', { path: '/rest/api/3/issue/PLAT-1/properties/odd', body: JSON.parse('{"__proto__":{"x":1},"v":2}') });
    expect(mock.requests[0]!.body).to.equal('{"__proto__":{"x":1},"v":2}');
  });

  for (const path of ['/wiki/api/v2/pages/163841', '/rest/%2e%2e/wiki/api/v2/pages', '/gateway/api/graphql', '/']) {
    it(`refuses ${path} without sending anything: jira_* stays on Jira's API`, async () => {
      const { text, isError } = await callTool(session.client, 'jira_get', { path });
      expect(isError).to.equal(true);
      expect(text).to.contain('Code: invalid_path');
      expect(mock.requests).to.have.length(0);
    });
  }

  it('explains the boundary and the setting that moves it', async () => {
    const { text } = await callTool(session.client, 'jira_delete', { path: '/wiki/api/v2/pages/1' });
    expect(text).to.contain('is not a Jira API path: Jira paths start with /rest/');
    expect(text).to.contain('JIRA_API_PREFIXES');
  });

  it('reports a 401 with the settings to check and the upstream body, never the token', async () => {
    mock.on('GET', '/rest/api/3/myself', {
      status: 401,
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'www-authenticate': 'OAuth realm="https%3A%2F%2Facme.atlassian.net"' },
      body: `Client must be authenticated to access this resource. (token ${ACCOUNT.ATLASSIAN_API_TOKEN})`,
    });
    const { text, isError } = await callTool(session.client, 'jira_get', { path: '/rest/api/3/myself' });
    expect(isError).to.equal(true);
    expect(text).to.match(/^Error: Jira answered 401 Unauthorized for GET \/rest\/api\/3\/myself\./);
    expect(text).to.contain('ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN');
    expect(text).to.contain('HTTP Status: 401');
    expect(text).to.contain('Client must be authenticated to access this resource.');
    expect(text).not.to.contain(ACCOUNT.ATLASSIAN_API_TOKEN);
    expect(session.stderr.join('\n')).not.to.contain(ACCOUNT.ATLASSIAN_API_TOKEN);
  });

  it('reports a 404 with the Jira error body pretty-printed, and a 403 with its status', async () => {
    mock.on('GET', '/rest/api/3/issue/NOPE-1', jsonReply(payload('jira/issue-not-found.json'), 404));
    mock.on('GET', '/rest/api/3/project/OPS', jsonReply('{"errorMessages":["You do not have permission to view this project."],"errors":{}}', 403));
    const notFound = await callTool(session.client, 'jira_get', { path: '/rest/api/3/issue/NOPE-1' });
    expect(notFound.isError).to.equal(true);
    expect(notFound.text).to.contain('HTTP Status: 404');
    expect(notFound.text).to.contain('Raw API Response:\n{\n  "errorMessages": [\n    "Issue does not exist or you do not have permission to see it."');
    const forbidden = await callTool(session.client, 'jira_get', { path: '/rest/api/3/project/OPS' });
    expect(forbidden.text).to.contain('HTTP Status: 403');
    expect(forbidden.text).to.contain('lack permission');
  });

  it('reports a 400 from JQL with the reason Jira gave', async () => {
    mock.on('GET', '/rest/api/3/search/jql', jsonReply(payload('jira/jql-invalid.json'), 400));
    const { text, isError } = await callTool(session.client, 'jira_get', { path: '/rest/api/3/search/jql', queryParams: { jql: 'project = = PLAT' } });
    expect(isError).to.equal(true);
    expect(text).to.contain('HTTP Status: 400');
    expect(text).to.contain("The character '=' is a reserved JQL character");
  });

  it('reports a 500 once, and retries a proxy HTML 502 on GET before reporting it', async () => {
    mock.on('GET', '/rest/api/3/serverInfo', jsonReply('{"errorMessages":["Internal server error"]}', 500));
    mock.on('GET', '/rest/api/3/status', {
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
    });
    const failed = await callTool(session.client, 'jira_get', { path: '/rest/api/3/serverInfo' });
    expect(failed.isError).to.equal(true);
    expect(failed.text).to.contain('Code: upstream_server_error');
    expect(failed.text).to.contain('HTTP Status: 500');
    const gateway = await callTool(session.client, 'jira_get', { path: '/rest/api/3/status' });
    expect(gateway.isError).to.equal(true);
    expect(gateway.text).to.contain('HTTP Status: 502');
    expect(gateway.text).to.contain('<h1>502 Bad Gateway</h1>');
    expect(mock.requests.map((r) => r.path)).to.deep.equal(['/rest/api/3/serverInfo', '/rest/api/3/status', '/rest/api/3/status', '/rest/api/3/status']);
  });

  it('never retries a write', async () => {
    mock.on('POST', '/rest/api/3/issue', { status: 503, headers: { 'retry-after': '5' }, body: '' });
    const { isError, text } = await callTool(session.client, 'jira_post', { path: '/rest/api/3/issue', body: { fields: {} } });
    expect(isError).to.equal(true);
    expect(text).to.contain('HTTP Status: 503');
    expect(mock.requests).to.have.length(1);
  });

  it('reports a 429 with when to retry', async () => {
    mock.on('GET', '/rest/api/3/search/jql', {
      status: 429,
      headers: { 'retry-after': '17', 'content-type': 'application/json' },
      body: '{"message":"Rate limit exceeded"}',
    });
    const { text, isError } = await callTool(session.client, 'jira_get', { path: '/rest/api/3/search/jql' });
    expect(isError).to.equal(true);
    expect(text).to.contain('Code: upstream_rate_limited');
    expect(text).to.contain('Retry after 17 seconds');
  });

  it('reports a connection reset as an error, not a crash', async () => {
    mock.on('POST', '/rest/api/3/issue', { reset: 'before-headers' });
    const { text, isError } = await callTool(session.client, 'jira_post', { path: '/rest/api/3/issue', body: {} });
    expect(isError).to.equal(true);
    expect(text).to.contain('Code: upstream_unreachable');
    mock.on('GET', '/rest/api/3/myself', jsonReply('{"ok":true}'));
    expect((await callTool(session.client, 'jira_get', { path: '/rest/api/3/myself' })).text).to.equal('ok: true');
  });

  it('saves the whole text of a truncated JSON response, owner-only, under MCP_RAW_RESPONSE_DIR', async () => {
    mock.on('GET', '/rest/api/3/myself', jsonReply(payload('jira/myself.json')));
    await callTool(session.client, 'jira_get', { path: '/rest/api/3/myself' });
    const before = savedFiles(rawDir);
    mock.on('GET', '/rest/api/3/search/jql', jsonReply(jiraSearchPage(80)));
    const { text } = await callTool(session.client, 'jira_get', { path: '/rest/api/3/search/jql' });
    const added = savedFiles(rawDir).filter((f) => !before.includes(f));
    expect(added, 'exactly one file, for the truncated call only').to.have.length(1);
    const file = join(rawDir, added[0]!);
    expect(text).to.contain(`- The full raw API response is saved at: \`${file}\``);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(statSync(rawDir).mode & 0o777).to.equal(0o700);
    const whole = readFileSync(file, 'utf8');
    expect(whole.startsWith(text.slice(0, 1000))).to.equal(true);
    expect(whole).to.contain('PLAT-2079');
    expect(text).not.to.contain('PLAT-2079');
  });

  it('writes no file for a truncated body that was not JSON, as the reference writes none', async () => {
    const before = savedFiles(rawDir);
    mock.on('GET', '/rest/api/3/attachment/content/1', { status: 200, headers: { 'content-type': 'text/csv' }, body: 'key,summary\n'.repeat(6000) });
    const { text, isError } = await callTool(session.client, 'jira_get', { path: '/rest/api/3/attachment/content/1' });
    expect(isError).to.equal(false);
    expect(text).to.contain('## Response Truncated');
    expect(text).not.to.contain('saved at');
    expect(savedFiles(rawDir)).to.deep.equal(before);
  });
});
