import { expect } from 'chai';
import type { RecordedRequest } from '../../../server/testing/mock-upstream.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { ACCOUNT, basicHeader, withoutLabelling } from '../atlassian/atlassian-calls.js';

const BASIC = basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN);
const bodyOf = (request: RecordedRequest | undefined): unknown => JSON.parse(request!.body);
const query = (request: RecordedRequest | undefined): Record<string, string> => Object.fromEntries(request!.query);

/** The ADF of "Checkout fails for [@Mia Krystof](mention:…) — see `cart-service`." as marklassian writes it. */
const MENTION_PARAGRAPH = {
  type: 'paragraph',
  content: [
    { type: 'text', text: 'Checkout fails for ' },
    { type: 'mention', attrs: { id: '5b10a2844c20165700ede21g', text: '@Mia Krystof' } },
    { type: 'text', text: ', see ' },
    { type: 'text', text: 'cart-service', marks: [{ type: 'code' }] },
    { type: 'text', text: '.' },
  ],
};
const MENTION_MARKDOWN = 'Checkout fails for [@Mia Krystof](mention:5b10a2844c20165700ede21g), see `cart-service`.';

// MCP_FENCE=false: these are the tools' mechanics; their labels and fences are tested in test/plugins/provenance/atlassian-labels.test.ts.
describe('Jira typed tools on Cloud (in-process, Jira-shaped mock, structured output on)', () => {
  const t = useVendorKernel({
    plugins: ['jira'],
    env: (url) => ({ ...ACCOUNT, JIRA_BASE_URL: url, JIRA_DEPLOYMENT: 'cloud', MCP_STRUCTURED_OUTPUT: 'true', MCP_FENCE: 'false' }),
  });

  describe('jira_search', () => {
    it("sends the JQL to /search/jql with the default fields, and gives Jira's nextPageToken back as nextCursor", async () => {
      const page = payload('jira/search-jql.json');
      t.mock.on('GET', '/rest/api/3/search/jql', jsonReply(page));
      const result = await t.kernel.call('jira_search', { jql: 'project = PLAT ORDER BY updated DESC', jq: 'issues[*].key' });
      expect(result.isError, textOf(result)).to.equal(undefined);
      const { nextPageToken } = JSON.parse(page) as { nextPageToken: string };
      expect(result.structuredContent).to.deep.equal({ data: ['PLAT-1421', 'PLAT-1416', 'PLAT-1385'], nextCursor: nextPageToken });
      const [request] = t.mock.requests;
      expect(request!.headers.authorization).to.equal(BASIC);
      expect(query(request)).to.deep.equal({
        jql: 'project = PLAT ORDER BY updated DESC',
        fields: 'summary,status,assignee,priority,issuetype,updated',
        maxResults: '50',
      });
    });

    it('passes the cursor as nextPageToken, with the fields and page size asked for, and ends with nextCursor null', async () => {
      t.mock.on('GET', '/rest/api/3/search/jql', jsonReply('{"issues":[{"id":"10001","key":"PLAT-3","fields":{"summary":"Last"}}],"isLast":true}'));
      const result = await t.kernel.call('jira_search', {
        jql: 'project = PLAT',
        fields: ['summary'],
        maxResults: 1,
        cursor: 'CAEaAggD',
        outputFormat: 'json',
      });
      expect(JSON.parse(textOf(result))).to.deep.equal({
        data: { issues: [{ id: '10001', key: 'PLAT-3', fields: { summary: 'Last' } }], isLast: true },
        nextCursor: null,
      });
      expect(query(t.mock.requests[0])).to.deep.equal({ jql: 'project = PLAT', fields: 'summary', maxResults: '1', nextPageToken: 'CAEaAggD' });
    });

    it("reports a JQL error with Jira's own errorMessages and status 400", async () => {
      t.mock.on('GET', '/rest/api/3/search/jql', jsonReply(payload('jira/jql-invalid.json'), 400));
      const result = await t.kernel.call('jira_search', { jql: 'project = = PLAT' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 400');
      expect(textOf(result)).to.contain("The character '=' is a reserved JQL character.");
      expect(result.structuredContent).to.equal(undefined);
    });

    it('refuses a page size over 100 before sending anything', async () => {
      const result = await t.kernel.call('jira_search', { jql: 'project = PLAT', maxResults: 500 });
      expect(textOf(result)).to.contain('invalid_arguments');
      expect(textOf(result)).to.contain('maxResults');
      expect(t.mock.requests).to.have.length(0);
    });
  });

  describe('jira_get_issue', () => {
    it('reads the issue and its newest comments, rich text as Markdown and people, status and type by name', async () => {
      t.mock.on('GET', '/rest/api/3/issue/PLAT-1421', jsonReply(payload('jira/issue-adf.json')));
      t.mock.on('GET', '/rest/api/3/issue/PLAT-1421/comment', jsonReply(payload('jira/comments-adf.json')));
      const result = await t.kernel.call('jira_get_issue', { issueKey: 'PLAT-1421', comments: 2 });
      const data = (result.structuredContent as { data: Record<string, unknown> }).data;
      expect(data).to.deep.include({ key: 'PLAT-1421', url: `${t.mock.url}/browse/PLAT-1421`, commentCount: 5 });
      const fields = data.fields as Record<string, unknown>;
      expect(fields).to.deep.include({
        summary: 'Checkout fails with 502 when the cart holds more than 50 items',
        status: 'In Progress',
        issuetype: 'Bug',
        priority: 'High',
      });
      expect(fields).to.deep.include({ assignee: 'Mia Krystof', reporter: 'Emma Richards', labels: ['checkout', 'incident-follow-up'] });
      expect(fields.description).to.match(/^## What happens\n\nThe gateway answers `502` once the cart has more than \*\*50\*\* items/);
      expect(fields.description).to.contain('[@Mia Krystof](mention:5b10a2844c20165700ede21g) is on it.');
      expect(data.comments).to.deep.equal([
        {
          id: '10071',
          author: 'Emma Richards',
          created: '2025-03-06T16:40:02.517+0100',
          body: '[@Mia Krystof](mention:5b10a2844c20165700ede21g) the fix is in [cart-service#418](https://github.com/acme/cart-service/pull/418).',
        },
        { id: '10070', author: 'Mia Krystof', created: '2025-03-05T11:02:13.004+0100', body: 'Reproduced with **51** items.' },
      ]);
      expect(withoutLabelling(t.mock.requests).map((r) => r.url)).to.deep.equal([
        '/rest/api/3/issue/PLAT-1421?fields=summary%2Cstatus%2Cissuetype%2Cpriority%2Cassignee%2Creporter%2Clabels%2Ccreated%2Cupdated%2Cdescription',
        '/rest/api/3/issue/PLAT-1421/comment?maxResults=2&orderBy=-created',
      ]);
    });

    it('asks for the fields named, and makes no second request with comments: 0', async () => {
      t.mock.on('GET', '/rest/api/3/issue/PLAT-1421', jsonReply('{"key":"PLAT-1421","fields":{"customfield_10016":1.5}}'));
      const result = await t.kernel.call('jira_get_issue', { issueKey: 'PLAT-1421', fields: ['customfield_10016'], comments: 0, jq: 'fields' });
      expect(result.structuredContent).to.deep.equal({ data: { customfield_10016: 1.5 } });
      expect(withoutLabelling(t.mock.requests).map((r) => r.url)).to.deep.equal(['/rest/api/3/issue/PLAT-1421?fields=customfield_10016']);
    });

    it("reports an issue that does not exist with Jira's 404, without reading comments", async () => {
      t.mock.on('GET', '/rest/api/3/issue/NOPE-1', jsonReply(payload('jira/issue-not-found.json'), 404));
      const result = await t.kernel.call('jira_get_issue', { issueKey: 'NOPE-1' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 404');
      expect(textOf(result)).to.contain('Issue does not exist or you do not have permission to see it.');
      expect(t.mock.requests).to.have.length(1);
    });

    it('refuses an issue key that is not one', async () => {
      const result = await t.kernel.call('jira_get_issue', { issueKey: '../../myself' });
      expect(textOf(result)).to.contain('invalid_arguments');
      expect(t.mock.requests).to.have.length(0);
    });
  });

  describe('jira_create_issue', () => {
    it('posts the fields with the description as an ADF document (mentions as mention nodes) and answers with the key and URL', async () => {
      t.mock.on('POST', '/rest/api/3/issue', jsonReply(payload('jira/created-issue.json'), 201));
      const args = {
        projectKey: 'PLAT',
        issueType: 'Bug',
        summary: 'Checkout 502 above 50 items',
        description: `## Impact\n\n${MENTION_MARKDOWN}`,
        fields: { labels: ['checkout'], priority: { name: 'High' }, summary: 'ignored: the summary argument wins' },
      };
      const result = await t.kernel.call('jira_create_issue', args);
      expect(result.structuredContent).to.deep.equal({ data: { key: 'PLAT-1427', id: '10240', url: `${t.mock.url}/browse/PLAT-1427` } });
      expect(textOf(result)).to.contain('PLAT-1427');
      const [request] = t.mock.requests;
      expect(request!.method).to.equal('POST');
      expect(request!.headers['content-type']).to.equal('application/json');
      expect(bodyOf(request)).to.deep.equal({
        fields: {
          labels: ['checkout'],
          priority: { name: 'High' },
          summary: 'Checkout 502 above 50 items',
          project: { key: 'PLAT' },
          issuetype: { name: 'Bug' },
          description: {
            version: 1,
            type: 'doc',
            content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Impact' }] }, MENTION_PARAGRAPH],
          },
        },
      });
    });

    it("names an issue type by id when given one, and reports Jira's field errors (400)", async () => {
      t.mock.on('POST', '/rest/api/3/issue', jsonReply('{"errorMessages":[],"errors":{"issuetype":"The issue type selected is invalid."}}', 400));
      const result = await t.kernel.call('jira_create_issue', { projectKey: 'PLAT', issueType: '10099', summary: 'x' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 400');
      expect(textOf(result)).to.contain('The issue type selected is invalid.');
      expect((bodyOf(t.mock.requests[0]) as { fields: Record<string, unknown> }).fields).to.deep.equal({
        project: { key: 'PLAT' },
        issuetype: { id: '10099' },
        summary: 'x',
      });
    });
  });

  describe('jira_update_issue', () => {
    it('puts the fields given, the description as ADF, and answers with what changed', async () => {
      t.mock.on('PUT', '/rest/api/3/issue/PLAT-1421', { status: 204 });
      const result = await t.kernel.call('jira_update_issue', { issueKey: 'PLAT-1421', description: MENTION_MARKDOWN, fields: { labels: ['checkout', 'p1'] } });
      expect(result.structuredContent).to.deep.equal({
        data: { key: 'PLAT-1421', url: `${t.mock.url}/browse/PLAT-1421`, updated: ['labels', 'description'] },
      });
      expect(bodyOf(t.mock.requests[0])).to.deep.equal({
        fields: { labels: ['checkout', 'p1'], description: { version: 1, type: 'doc', content: [MENTION_PARAGRAPH] } },
      });
    });

    it('refuses a call that changes nothing (no field, or empty fields), before sending anything', async () => {
      for (const args of [{ issueKey: 'PLAT-1421' }, { issueKey: 'PLAT-1421', fields: {} }]) {
        const result = await t.kernel.call('jira_update_issue', args);
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.contain('Code: invalid_arguments');
      }
      expect(t.mock.requests).to.have.length(0);
    });

    it("refuses rich text longer than Jira's 32,767-character limit on a text field, saying so, before sending anything", async () => {
      const long = 'word '.repeat(6554).slice(0, 32_768);
      for (const [tool, args] of [
        ['jira_update_issue', { issueKey: 'PLAT-1421', description: long }],
        ['jira_create_issue', { projectKey: 'PLAT', issueType: 'Bug', summary: 'Too long', description: long }],
        ['jira_add_comment', { issueKey: 'PLAT-1421', body: long }],
      ] as const) {
        const result = await t.kernel.call(tool, args);
        expect(result.isError, tool).to.equal(true);
        expect(textOf(result), tool).to.contain('Code: invalid_arguments').and.to.contain('32767');
      }
      expect(t.mock.requests).to.have.length(0);
    });
  });

  describe('jira_transition_issue', () => {
    beforeEach(() => {
      t.mock.on('GET', '/rest/api/3/issue/PLAT-1421/transitions', jsonReply(payload('jira/transitions.json')));
      t.mock.on('POST', '/rest/api/3/issue/PLAT-1421/transitions', { status: 204 });
      t.mock.on('GET', '/rest/api/3/issue/PLAT-1421', jsonReply('{"key":"PLAT-1421","fields":{"status":{"name":"In Progress","id":"3"}}}'));
    });

    it('finds a transition by name whatever its case, posts its id with the comment as ADF, and answers with the new status', async () => {
      const result = await t.kernel.call('jira_transition_issue', { issueKey: 'PLAT-1421', transition: 'in progress', comment: MENTION_MARKDOWN });
      expect(result.structuredContent).to.deep.equal({
        data: { key: 'PLAT-1421', url: `${t.mock.url}/browse/PLAT-1421`, transition: 'In Progress', status: 'In Progress', commented: true },
      });
      expect(t.mock.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
        'GET /rest/api/3/issue/PLAT-1421/transitions',
        'POST /rest/api/3/issue/PLAT-1421/transitions',
        'GET /rest/api/3/issue/PLAT-1421?fields=status',
      ]);
      expect(bodyOf(t.mock.requests[1])).to.deep.equal({
        transition: { id: '21' },
        update: { comment: [{ add: { body: { version: 1, type: 'doc', content: [MENTION_PARAGRAPH] } } }] },
      });
    });

    it('takes a transition by id', async () => {
      await t.kernel.call('jira_transition_issue', { issueKey: 'PLAT-1421', transition: '31' });
      expect(bodyOf(t.mock.requests[1])).to.deep.equal({ transition: { id: '31' } });
    });

    it('refuses a transition the issue does not have, listing those it has, and changes nothing', async () => {
      const result = await t.kernel.call('jira_transition_issue', { issueKey: 'PLAT-1421', transition: 'In Review' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('Code: upstream_http_error');
      expect(textOf(result)).to.contain(
        'PLAT-1421 has no transition "In Review" from its current status. Available: "To Do" (id 11, to To Do), "In Progress" (id 21, to In Progress), "Done" (id 31, to Done). Pass one of these names or ids. Nothing was changed.',
      );
      expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['GET']);
    });
  });

  describe('jira_add_comment', () => {
    it('posts the comment as ADF and answers with its id and a link to it', async () => {
      t.mock.on('POST', '/rest/api/3/issue/PLAT-1421/comment', jsonReply(payload('jira/created-comment.json'), 201));
      const result = await t.kernel.call('jira_add_comment', { issueKey: 'PLAT-1421', body: MENTION_MARKDOWN });
      expect(result.structuredContent).to.deep.equal({
        data: { issueKey: 'PLAT-1421', id: '10072', url: `${t.mock.url}/browse/PLAT-1421?focusedCommentId=10072`, created: '2025-03-07T09:00:00.000+0100' },
      });
      expect(bodyOf(t.mock.requests[0])).to.deep.equal({ body: { version: 1, type: 'doc', content: [MENTION_PARAGRAPH] } });
    });

    it('refuses an empty comment before sending anything', async () => {
      const result = await t.kernel.call('jira_add_comment', { issueKey: 'PLAT-1421', body: '' });
      expect(textOf(result)).to.contain('invalid_arguments');
      expect(t.mock.requests).to.have.length(0);
    });
  });

  it('lists the typed tools with output schemas, the writes not read-only, and no property both required and defaulted', async () => {
    const client = await t.kernel.connect();
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    const typed = ['jira_search', 'jira_get_issue', 'jira_create_issue', 'jira_update_issue', 'jira_transition_issue', 'jira_add_comment'];
    for (const name of typed) {
      const tool = tools.get(name)!;
      expect(tool.outputSchema, name).to.have.property('type', 'object');
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { default?: unknown }>;
      const both = (tool.inputSchema.required ?? []).filter((p) => properties[p]?.default !== undefined);
      expect(both, name).to.deep.equal([]);
    }
    expect(tools.get('jira_search')!.outputSchema!.required).to.include('nextCursor');
    for (const name of typed.slice(2)) expect(tools.get(name)!.annotations, name).to.include({ readOnlyHint: false, destructiveHint: false });
    expect(tools.get('jira_get_issue')!.annotations).to.include({ readOnlyHint: true });
  });
});

describe('Jira typed tools with structured output off', () => {
  const t = useVendorKernel({ plugins: ['jira'], env: (url) => ({ ...ACCOUNT, JIRA_BASE_URL: url, JIRA_DEPLOYMENT: 'cloud' }) });

  it('renders a write answer as text (never empty) and no structuredContent', async () => {
    t.mock.on('POST', '/rest/api/3/issue', jsonReply(payload('jira/created-issue.json'), 201));
    const result = await t.kernel.call('jira_create_issue', { projectKey: 'PLAT', issueType: 'Task', summary: 'Text only' });
    expect(result.structuredContent).to.equal(undefined);
    expect(textOf(result)).to.equal(`key: PLAT-1427\nid: "10240"\nurl: "${t.mock.url}/browse/PLAT-1427"`);
  });

  it('renders a search page and its cursor together', async () => {
    t.mock.on('GET', '/rest/api/3/search/jql', jsonReply('{"issues":[{"key":"PLAT-1"}],"nextPageToken":"tok2"}'));
    const result = await t.kernel.call('jira_search', { jql: 'project = PLAT', outputFormat: 'json' });
    expect(result.structuredContent).to.equal(undefined);
    expect(JSON.parse(textOf(result))).to.deep.equal({ data: { issues: [{ key: 'PLAT-1' }], nextPageToken: 'tok2' }, nextCursor: 'tok2' });
  });
});
