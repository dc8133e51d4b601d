import { withoutLabelling } from '../atlassian/atlassian-calls.js';
import { expect } from 'chai';
import type { RecordedRequest } from '../../../server/testing/mock-upstream.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

/** A Data Center personal access token; never to be seen in a result or a log. */
const PAT = 'NjM4OTk5MzQ2NjQzOrZnCm1vFzKx-dc-test-pat';
const bodyOf = (request: RecordedRequest | undefined): unknown => JSON.parse(request!.body);

/** Issues of a Data Center search page: `startAt` and `total` say where the caller is. */
function searchPage(request: RecordedRequest): { body: unknown } {
  const startAt = Number(request.query.get('startAt') ?? '0');
  const keys = ['OPS-88', 'OPS-87', 'OPS-80'];
  const issues = keys.slice(startAt, startAt + Number(request.query.get('maxResults'))).map((key, i) => ({
    id: String(20417 - startAt - i),
    self: `https://jira.acme.example/rest/api/2/issue/${key}`,
    key,
    fields: { summary: `Issue ${key}` },
  }));
  return { body: { expand: 'schema,names', startAt, maxResults: Number(request.query.get('maxResults')), total: keys.length, issues } };
}

// A base URL off atlassian.net makes the deployment Data Center: API 2, wiki markup, a personal access token.
// MCP_FENCE=false: these are the tools' mechanics; their labels and fences are tested in test/plugins/provenance/atlassian-labels.test.ts.
describe('Jira typed tools on Data Center (in-process, personal access token)', () => {
  const t = useVendorKernel({
    plugins: ['jira'],
    env: (url) => ({ JIRA_BASE_URL: `${url}/jira`, JIRA_PERSONAL_TOKEN: PAT, MCP_STRUCTURED_OUTPUT: 'true', MCP_FENCE: 'false' }),
  });

  it('pages a search by startAt under /rest/api/2/search, the offset as an opaque cursor, sending the token as Bearer', async () => {
    t.mock.on('GET', '/jira/rest/api/2/search', searchPage);
    const first = await t.kernel.call('jira_search', { jql: 'project = OPS', maxResults: 2, jq: 'issues[*].key' });
    expect(first.structuredContent).to.deep.equal({ data: ['OPS-88', 'OPS-87'], nextCursor: '2' });
    const second = await t.kernel.call('jira_search', { jql: 'project = OPS', maxResults: 2, cursor: '2', jq: 'issues[*].key' });
    expect(second.structuredContent).to.deep.equal({ data: ['OPS-80'], nextCursor: null });
    expect(withoutLabelling(t.mock.requests).map((r) => r.url)).to.deep.equal([
      '/jira/rest/api/2/search?jql=project+%3D+OPS&fields=summary%2Cstatus%2Cassignee%2Cpriority%2Cissuetype%2Cupdated&maxResults=2',
      '/jira/rest/api/2/search?jql=project+%3D+OPS&fields=summary%2Cstatus%2Cassignee%2Cpriority%2Cissuetype%2Cupdated&maxResults=2&startAt=2',
    ]);
    for (const request of t.mock.requests) expect(request.headers.authorization).to.equal(`Bearer ${PAT}`);
  });

  it("sends a cursor that is not an offset as it is, and shows Jira's refusal; refuses one with characters no cursor has", async () => {
    t.mock.on(
      'GET',
      '/jira/rest/api/2/search',
      jsonReply('{"errorMessages":["The value \'CAEaAggD\' is invalid for the startAt parameter."],"errors":{}}', 400),
    );
    const foreign = await t.kernel.call('jira_search', { jql: 'project = OPS', cursor: 'CAEaAggD' });
    expect(textOf(foreign)).to.contain('HTTP Status: 400');
    expect(textOf(foreign)).to.contain('is invalid for the startAt parameter');
    expect(t.mock.requests[0]!.query.get('startAt')).to.equal('CAEaAggD');
    const hostile = await t.kernel.call('jira_search', { jql: 'project = OPS', cursor: '1&jql=project=SEC' });
    expect(textOf(hostile)).to.contain('Code: invalid_arguments');
    expect(t.mock.requests).to.have.length(1);
  });

  it('reads an issue with its wiki-markup description and comments as Markdown', async () => {
    t.mock.on('GET', '/jira/rest/api/2/issue/OPS-88', jsonReply(payload('jira/dc-issue.json')));
    t.mock.on('GET', '/jira/rest/api/2/issue/OPS-88/comment', jsonReply(payload('jira/dc-comments.json')));
    const result = await t.kernel.call('jira_get_issue', { issueKey: 'OPS-88' });
    const data = (result.structuredContent as { data: { url: string; fields: Record<string, unknown>; comments: unknown[] } }).data;
    expect(data.url).to.equal(`${t.mock.url}/jira/browse/OPS-88`);
    expect(data.fields).to.deep.include({ status: 'To Do', issuetype: 'Task', assignee: 'Jan Smith', reporter: 'Mia Krystof' });
    expect(data.fields.description).to.contain('```bash\n# check the expiry\nopenssl x509 -enddate -noout -in agent.pem\n```');
    expect(data.fields.description).to.contain('[@jsmith](mention:jsmith) please take this; see [runbook](https://wiki.acme.example/display/OPS/TLS).');
    expect(data.comments).to.deep.equal([
      { id: '30112', author: 'Jan Smith', created: '2025-02-12T10:30:00.000+0100', body: 'Done for **build-01**, `build-02` next.' },
    ]);
    expect(t.mock.requests[1]!.url).to.equal('/jira/rest/api/2/issue/OPS-88/comment?maxResults=10&orderBy=-created');
  });

  it('creates an issue with the description as wiki markup under /rest/api/2/issue', async () => {
    t.mock.on('POST', '/jira/rest/api/2/issue', jsonReply('{"id":"20420","key":"OPS-91","self":"https://jira.acme.example/rest/api/2/issue/20420"}', 201));
    const description = '## Steps\n\n1. Renew\n2. Roll\n\n```bash\n# not a heading\n```\n\nAsk [@jsmith](mention:jsmith).';
    const result = await t.kernel.call('jira_create_issue', { projectKey: 'OPS', issueType: 'Task', summary: 'Rotate certs', description });
    expect(result.structuredContent).to.deep.equal({ data: { key: 'OPS-91', id: '20420', url: `${t.mock.url}/jira/browse/OPS-91` } });
    expect(bodyOf(t.mock.requests[0])).to.deep.equal({
      fields: {
        project: { key: 'OPS' },
        issuetype: { name: 'Task' },
        summary: 'Rotate certs',
        description: 'h2. Steps\n\n# Renew\n# Roll\n\n{code:bash}\n# not a heading\n{code}\n\nAsk [~jsmith].',
      },
    });
  });

  it('transitions with a wiki-markup comment, and comments in wiki markup', async () => {
    t.mock.on('GET', '/jira/rest/api/2/issue/OPS-88/transitions', jsonReply(payload('jira/transitions.json')));
    t.mock.on('POST', '/jira/rest/api/2/issue/OPS-88/transitions', { status: 204 });
    t.mock.on('GET', '/jira/rest/api/2/issue/OPS-88', jsonReply('{"key":"OPS-88","fields":{"status":{"name":"Done"}}}'));
    t.mock.on('POST', '/jira/rest/api/2/issue/OPS-88/comment', jsonReply('{"id":"30113","body":"x","created":"2025-02-13T09:00:00.000+0100"}', 201));
    const moved = await t.kernel.call('jira_transition_issue', { issueKey: 'OPS-88', transition: 'Done', comment: 'Rotated on **all** agents.' });
    expect((moved.structuredContent as { data: unknown }).data).to.deep.include({ transition: 'Done', status: 'Done' });
    expect(bodyOf(t.mock.requests[1])).to.deep.equal({ transition: { id: '31' }, update: { comment: [{ add: { body: 'Rotated on *all* agents.' } }] } });
    await t.kernel.call('jira_add_comment', { issueKey: 'OPS-88', body: 'See `vault read pki/cert`.' });
    expect(bodyOf(t.mock.requests[3])).to.deep.equal({ body: 'See {{vault read pki/cert}}.' });
  });

  it('says which setting holds the token on a 401, and never shows the token, even when Jira echoes it', async () => {
    t.mock.on('GET', '/jira/rest/api/2/issue/OPS-1', (request) => ({ status: 401, body: `Bad token: ${String(request.headers.authorization)}` }));
    const result = await t.kernel.call('jira_get_issue', { issueKey: 'OPS-1' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('JIRA_PERSONAL_TOKEN');
    expect(textOf(result)).not.to.contain(PAT);
    expect(JSON.stringify(result)).not.to.contain(PAT);
  });
});
