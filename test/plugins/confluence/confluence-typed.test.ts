import { expect } from 'chai';
import type { RecordedRequest } from '../../../server/testing/mock-upstream.js';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { startTestKernel, textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { ACCOUNT, basicHeader, withoutLabelling } from '../atlassian/atlassian-calls.js';

const bodyOf = (request: RecordedRequest | undefined): unknown => JSON.parse(request!.body);
const MENTION = 'Ask [@Mia Krystof](mention:5b10a2844c20165700ede21g) before `deploy`.';
const MENTION_STORAGE =
  '<p>Ask <ac:link><ri:user ri:account-id="5b10a2844c20165700ede21g" /><ac:plain-text-link-body><![CDATA[@Mia Krystof]]></ac:plain-text-link-body></ac:link> before <code>deploy</code>.</p>';

/** A page as Cloud's v2 API answers a create or an update (created-page.json), with another id, title and version. */
function savedPage(id: string, title: string, version: number): string {
  const page = JSON.parse(payload('confluence/created-page.json')) as Record<string, unknown>;
  return JSON.stringify({
    ...page,
    id,
    title,
    version: { ...(page.version as object), number: version },
    _links: { webui: `/spaces/ENG/pages/${id}/${title.replace(/ /g, '+')}`, base: 'https://acme.atlassian.net/wiki' },
  });
}

/** The v2 page of page.json, its body the runbook of content-page.json (code macro, mention, table). */
function runbookPage(version = 7): string {
  const page = JSON.parse(payload('confluence/page.json')) as Record<string, unknown>;
  const storage = (JSON.parse(payload('confluence/content-page.json')) as { body: { storage: { value: string } } }).body.storage.value;
  return JSON.stringify({
    ...page,
    version: { ...(page.version as object), number: version },
    body: { storage: { representation: 'storage', value: storage } },
  });
}

const SPACE = '{"id":"65538","key":"ENG","name":"Engineering","type":"global","status":"current","homepageId":"65709","_links":{"webui":"/spaces/ENG"}}';

// MCP_FENCE=false: these are the tools' mechanics; their labels and fences are tested in test/plugins/provenance/atlassian-labels.test.ts.
describe('Confluence typed tools on Cloud (in-process, Confluence-shaped mock, structured output on)', () => {
  const t = useVendorKernel({
    plugins: ['confluence'],
    env: (url) => ({ ...ACCOUNT, CONFLUENCE_BASE_URL: url, CONFLUENCE_DEPLOYMENT: 'cloud', MCP_STRUCTURED_OUTPUT: 'true', MCP_FENCE: 'false' }),
  });

  describe('conf_search', () => {
    it("sends the CQL to /wiki/rest/api/search, and gives the next link's cursor back as an opaque nextCursor", async () => {
      t.mock.on('GET', '/wiki/rest/api/search', jsonReply(payload('confluence/search-cursor.json')));
      const first = await t.kernel.call('conf_search', { cql: 'space = ENG and text ~ "checkout"', limit: 1, jq: 'results[*].content.id' });
      const { data, nextCursor } = first.structuredContent as { data: unknown; nextCursor: string };
      expect(data).to.deep.equal(['163841']);
      expect(t.mock.requests[0]!.headers.authorization).to.equal(basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN));
      t.mock.on('GET', '/wiki/rest/api/search', jsonReply(payload('confluence/search.json')));
      const second = await t.kernel.call('conf_search', { cql: 'space = ENG and text ~ "checkout"', limit: 1, cursor: nextCursor });
      expect((second.structuredContent as { nextCursor: unknown }).nextCursor).to.equal(null);
      expect(Object.fromEntries(withoutLabelling(t.mock.requests)[1]!.query)).to.deep.equal({
        cql: 'space = ENG and text ~ "checkout"',
        limit: '1',
        next: 'true',
        cursor: '_f_MQ==_sa_WyJcdDE2Mzg0MSBUVV1dIl0=',
        start: '1',
      });
    });

    it("never lets a cursor carry anything but a position: a forged one goes as Confluence's own cursor value", async () => {
      t.mock.on('GET', '/wiki/rest/api/search', jsonReply('{"results":[],"_links":{}}'));
      const forged = Buffer.from('start=1&cql=type=page', 'utf8').toString('base64url');
      await t.kernel.call('conf_search', { cql: 'space = ENG', cursor: forged });
      expect(Object.fromEntries(t.mock.requests[0]!.query)).to.deep.equal({ cql: 'space = ENG', limit: '25', cursor: forged });
      const hostile = await t.kernel.call('conf_search', { cql: 'space = ENG', cursor: 'a&cql=x' });
      expect(textOf(hostile)).to.contain('Code: invalid_arguments');
      expect(t.mock.requests).to.have.length(1);
    });

    it("reports a CQL error with Confluence's 400", async () => {
      t.mock.on('GET', '/wiki/rest/api/search', jsonReply('{"statusCode":400,"message":"Could not parse cql : space = = ENG","reason":"Bad Request"}', 400));
      const result = await t.kernel.call('conf_search', { cql: 'space = = ENG' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 400');
      expect(textOf(result)).to.contain('Could not parse cql');
    });
  });

  describe('conf_get_page', () => {
    it('reads the page (API v2) with its body as Markdown, then its space by id, and gives its version and web URL', async () => {
      t.mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(runbookPage()));
      t.mock.on('GET', '/wiki/api/v2/spaces/65538', jsonReply(SPACE));
      const result = await t.kernel.call('conf_get_page', { pageId: '163841' });
      const data = (result.structuredContent as { data: Record<string, unknown> }).data;
      expect(data).to.deep.include({
        id: '163841',
        title: 'Runbook: checkout deploys',
        space: { key: 'ENG', name: 'Engineering' },
        version: 7,
        url: 'https://acme.atlassian.net/wiki/spaces/ENG/pages/163841/Runbook+checkout+deploys',
        updated: '2025-03-06T09:14:03.221Z',
        updatedBy: '5b10a2844c20165700ede21g',
        format: 'markdown',
      });
      expect(data.body).to.match(
        /^## Rollback\n\nRun `deploy rollback --to 2025\.02` & tell \[@5b10a2844c20165700ede21g\]\(mention:5b10a2844c20165700ede21g\)/,
      );
      expect(data.body).to.contain('```bash\n# never roll back the DB migration\n');
      expect(withoutLabelling(t.mock.requests).map((r) => r.url)).to.deep.equal(['/wiki/api/v2/pages/163841?body-format=storage', '/wiki/api/v2/spaces/65538']);
    });

    it('gives the storage XHTML as it is with format "storage"', async () => {
      t.mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(runbookPage()));
      t.mock.on('GET', '/wiki/api/v2/spaces/65538', jsonReply(SPACE));
      const result = await t.kernel.call('conf_get_page', { pageId: '163841', format: 'storage', jq: 'body' });
      expect(result.structuredContent).to.deep.equal({
        data: (JSON.parse(payload('confluence/content-page.json')) as { body: { storage: { value: string } } }).body.storage.value,
      });
    });

    it("reports a page that does not exist with Confluence's 404", async () => {
      t.mock.on('GET', '/wiki/api/v2/pages/999999', jsonReply(payload('confluence/not-found.json'), 404));
      const result = await t.kernel.call('conf_get_page', { pageId: '999999' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('HTTP Status: 404');
      expect(textOf(result)).to.contain('NOT_FOUND');
      expect(t.mock.requests).to.have.length(1);
    });
  });

  describe('conf_create_page', () => {
    it('finds the space id by its key, posts the page in storage format under its parent, and answers with id, version and URL', async () => {
      t.mock.on('GET', '/wiki/api/v2/spaces', jsonReply(payload('confluence/spaces.json')));
      t.mock.on('POST', '/wiki/api/v2/pages', jsonReply(savedPage('170001', 'Deploy checklist', 1)));
      const result = await t.kernel.call('conf_create_page', { spaceKey: 'ENG', title: 'Deploy checklist', body: MENTION, parentId: '163841' });
      expect(result.structuredContent).to.deep.equal({
        data: {
          id: '170001',
          title: 'Deploy checklist',
          space: { key: 'ENG', name: 'Engineering' },
          version: 1,
          url: 'https://acme.atlassian.net/wiki/spaces/ENG/pages/170001/Deploy+checklist',
        },
      });
      expect(t.mock.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['GET /wiki/api/v2/spaces?keys=ENG', 'POST /wiki/api/v2/pages']);
      expect(bodyOf(t.mock.requests[1])).to.deep.equal({
        spaceId: '65538',
        status: 'current',
        title: 'Deploy checklist',
        parentId: '163841',
        body: { representation: 'storage', value: MENTION_STORAGE },
      });
    });

    it('refuses a space key no space has, creating nothing', async () => {
      t.mock.on('GET', '/wiki/api/v2/spaces', jsonReply('{"results":[],"_links":{"base":"https://acme.atlassian.net/wiki"}}'));
      const result = await t.kernel.call('conf_create_page', { spaceKey: 'NOPE', title: 'x', body: 'x' });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('No space with the key "NOPE" is visible to this account');
      expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['GET']);
    });

    it("reports Confluence's refusal of a title that is taken", async () => {
      t.mock.on('GET', '/wiki/api/v2/spaces', jsonReply(payload('confluence/spaces.json')));
      t.mock.on(
        'POST',
        '/wiki/api/v2/pages',
        jsonReply(
          '{"errors":[{"status":400,"code":"INVALID_REQUEST_PARAMETER","title":"A page with this title already exists: A page already exists with the same TITLE in this space","detail":null}]}',
          400,
        ),
      );
      const result = await t.kernel.call('conf_create_page', { spaceKey: 'ENG', title: 'Runbook: checkout deploys', body: 'x' });
      expect(textOf(result)).to.contain('A page with this title already exists');
    });
  });

  describe('conf_update_page', () => {
    it('saves the version after the one given, keeping the request to the route (no read first) when the title is given too', async () => {
      t.mock.on('PUT', '/wiki/api/v2/pages/163841', jsonReply(savedPage('163841', 'Runbook', 8)));
      const result = await t.kernel.call('conf_update_page', { pageId: '163841', title: 'Runbook', body: MENTION, version: 7 });
      expect(result.structuredContent).to.deep.equal({
        data: { id: '163841', title: 'Runbook', version: 8, url: 'https://acme.atlassian.net/wiki/spaces/ENG/pages/163841/Runbook' },
      });
      expect(t.mock.requests.map((r) => r.method)).to.deep.equal(['PUT']);
      expect(bodyOf(t.mock.requests[0])).to.deep.equal({
        id: '163841',
        status: 'current',
        title: 'Runbook',
        version: { number: 8 },
        body: { representation: 'storage', value: MENTION_STORAGE },
      });
    });

    it('takes the next version and the current title when they are not given', async () => {
      t.mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(payload('confluence/page.json')));
      t.mock.on('PUT', '/wiki/api/v2/pages/163841', jsonReply(savedPage('163841', 'Runbook: checkout deploys', 8)));
      await t.kernel.call('conf_update_page', { pageId: '163841', body: 'New text.' });
      expect(t.mock.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['GET /wiki/api/v2/pages/163841', 'PUT /wiki/api/v2/pages/163841']);
      expect(bodyOf(t.mock.requests[1])).to.deep.include({ title: 'Runbook: checkout deploys', version: { number: 8 } });
    });

    it('turns a 409 (someone saved first) into an error naming the version now and the one the edit was based on', async () => {
      t.mock.on(
        'PUT',
        '/wiki/api/v2/pages/163841',
        jsonReply('{"errors":[{"status":409,"code":"CONFLICT","title":"Version must be incremented on update. Current version is: 9","detail":null}]}', 409),
      );
      t.mock.on('GET', '/wiki/api/v2/pages/163841', jsonReply(runbookPage(9)));
      const result = await t.kernel.call('conf_update_page', { pageId: '163841', title: 'Runbook', body: 'Stale edit.', version: 7 });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain(
        'Page 163841 was not saved: it is at version 9 now, and this edit was based on version 7 (it would have been version 8). Someone saved it in between: read it again with conf_get_page, apply your change to that version, and retry with version 9.',
      );
      expect(textOf(result)).to.contain('HTTP Status: 409');
    });
  });

  describe('conf_add_comment', () => {
    it('posts a comment on the page in storage format and answers with its id and URL', async () => {
      t.mock.on(
        'POST',
        '/wiki/api/v2/footer-comments',
        jsonReply(
          '{"id":"170010","status":"current","title":"Re: Runbook","pageId":"163841","version":{"number":1,"authorId":"5b10a2844c20165700ede21g","createdAt":"2025-03-07T09:00:00.000Z"},"_links":{"webui":"/spaces/ENG/pages/163841/Runbook?focusedCommentId=170010"}}',
        ),
      );
      const result = await t.kernel.call('conf_add_comment', { pageId: '163841', body: MENTION });
      expect(result.structuredContent).to.deep.equal({
        data: { id: '170010', pageId: '163841', url: `${t.mock.url}/wiki/spaces/ENG/pages/163841/Runbook?focusedCommentId=170010` },
      });
      expect(bodyOf(t.mock.requests[0])).to.deep.equal({ pageId: '163841', body: { representation: 'storage', value: MENTION_STORAGE } });
    });
  });
});

describe('Confluence typed tools on Data Center (personal access token, structured output off)', () => {
  const PAT = 'MzQ1Njc4OTAxMjM0NTY3-confluence-dc-pat';
  const t = useVendorKernel({
    plugins: ['confluence'],
    env: (url) => ({ CONFLUENCE_BASE_URL: `${url}/confluence`, CONFLUENCE_API_PREFIXES: '/rest/', CONFLUENCE_PERSONAL_TOKEN: PAT, MCP_FENCE: 'false' }),
  });

  it('reads a page under /rest/api with a Bearer token, as text, with no structuredContent', async () => {
    t.mock.on('GET', '/confluence/rest/api/content/2097154', jsonReply(payload('confluence/dc-content-page.json')));
    const result = await t.kernel.call('conf_get_page', { pageId: '2097154', outputFormat: 'json' });
    expect(result.structuredContent).to.equal(undefined);
    expect(JSON.parse(textOf(result))).to.deep.include({
      title: 'On-call handbook',
      space: { key: 'OPS', name: 'Operations' },
      version: 3,
      url: 'https://wiki.acme.example/display/OPS/On-call+handbook',
      body: 'Escalate to [@8a7f808a6e5d2b4b016e5d2d3a6b0001](mention:8a7f808a6e5d2b4b016e5d2d3a6b0001).\n\n```\npagerduty trigger --service build\n```',
    });
    expect(t.mock.requests[0]!.headers.authorization).to.equal(`Bearer ${PAT}`);
  });

  it('pages a search by start, and writes mentions by user key', async () => {
    t.mock.on('GET', '/confluence/rest/api/search', (request) => ({
      body: {
        results: [{ content: { id: '2097154', type: 'page', title: 'On-call handbook' } }],
        start: Number(request.query.get('start') ?? 0),
        limit: 1,
        size: 1,
        _links: request.query.get('start') === null ? { next: '/rest/api/search?cql=space%3DOPS&limit=1&start=1' } : {},
      },
    }));
    const first = JSON.parse(textOf(await t.kernel.call('conf_search', { cql: 'space=OPS', limit: 1, outputFormat: 'json' }))) as { nextCursor: string };
    const second = JSON.parse(textOf(await t.kernel.call('conf_search', { cql: 'space=OPS', limit: 1, cursor: first.nextCursor, outputFormat: 'json' }))) as {
      nextCursor: unknown;
    };
    expect(second.nextCursor).to.equal(null);
    expect(t.mock.requests[1]!.url).to.equal('/confluence/rest/api/search?cql=space%3DOPS&limit=1&start=1');
    t.mock.on(
      'POST',
      '/confluence/rest/api/content',
      jsonReply(
        '{"id":"2097160","type":"comment","_links":{"webui":"/display/OPS/On-call+handbook?focusedCommentId=2097160","base":"https://wiki.acme.example"}}',
      ),
    );
    const comment = await t.kernel.call('conf_add_comment', { pageId: '2097154', body: 'Done, [@Jan Smith](mention:8a7f808a6e5d2b4b016e5d2d3a6b0001).' });
    expect(textOf(comment)).to.contain('https://wiki.acme.example/display/OPS/On-call+handbook?focusedCommentId=2097160');
    expect((bodyOf(t.mock.requests[2]) as { body: { storage: { value: string } } }).body.storage.value).to.equal(
      '<p>Done, <ac:link><ri:user ri:userkey="8a7f808a6e5d2b4b016e5d2d3a6b0001" /><ac:plain-text-link-body><![CDATA[@Jan Smith]]></ac:plain-text-link-body></ac:link>.</p>',
    );
  });

  it('creates a page by space key and updates it through the content API, taking the next version when none is given', async () => {
    t.mock.on('POST', '/confluence/rest/api/content', jsonReply(payload('confluence/dc-content-page.json').replace('"number":3', '"number":1')));
    t.mock.on('GET', '/confluence/rest/api/content/2097154', jsonReply(payload('confluence/dc-content-page.json')));
    t.mock.on('PUT', '/confluence/rest/api/content/2097154', jsonReply(payload('confluence/dc-content-page.json').replace('"number":3', '"number":4')));
    const create = { spaceKey: 'OPS', title: 'On-call handbook', body: '# Escalation', parentId: '1572870' };
    expect(textOf(await t.kernel.call('conf_create_page', create))).to.equal(
      'id: "2097154"\ntitle: On-call handbook\nspace:\n  key: OPS\n  name: Operations\nversion: 1\nurl: "https://wiki.acme.example/display/OPS/On-call+handbook"',
    );
    expect(bodyOf(t.mock.requests[0])).to.deep.equal({
      type: 'page',
      title: 'On-call handbook',
      space: { key: 'OPS' },
      ancestors: [{ id: '1572870' }],
      body: { storage: { value: '<h1>Escalation</h1>', representation: 'storage' } },
    });
    expect(textOf(await t.kernel.call('conf_update_page', { pageId: '2097154', body: 'Call Jan.' }))).to.contain('version: 4');
    expect(t.mock.requests.slice(1).map((r) => `${r.method} ${r.url}`)).to.deep.equal([
      'GET /confluence/rest/api/content/2097154?expand=version',
      'PUT /confluence/rest/api/content/2097154',
    ]);
    expect(bodyOf(t.mock.requests[2])).to.deep.equal({
      id: '2097154',
      type: 'page',
      title: 'On-call handbook',
      version: { number: 4 },
      body: { storage: { value: '<p>Call Jan.</p>', representation: 'storage' } },
    });
  });

  it('says to set CONFLUENCE_API_PREFIXES when the Data Center API lies outside them, sending nothing', async () => {
    const kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['confluence'] }) },
      env: { CONFLUENCE_BASE_URL: `${t.mock.url}/confluence`, CONFLUENCE_PERSONAL_TOKEN: PAT },
    });
    try {
      const text = textOf(await kernel.call('conf_get_page', { pageId: '2097154' }));
      expect(text).to.contain('is not a Confluence API path');
      expect(text).to.contain('CONFLUENCE_API_PREFIXES');
      expect(t.mock.requests).to.have.length(0);
    } finally {
      await kernel.close();
    }
  });
});
