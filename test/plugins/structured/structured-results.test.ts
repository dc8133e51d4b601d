import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { githubFixture, githubLink, structuredFixtureConfig } from './structured-fixtures.js';

const FETCHED_AT = '2026-10-07T16:20:11.402Z';
const runsArgs = { owner: 'octo-org', repo: 'octo-repo' };

function structured(result: CallToolResult): Record<string, unknown> | undefined {
  return result.structuredContent as Record<string, unknown> | undefined;
}

describe('structured output: the three contracts, in-process against a loopback mock', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;
  const runsPage = githubFixture('workflow-run-paginated');

  before(async () => {
    mock = await MockUpstream.start();
    kernel = await startTestKernel({
      configFile: structuredFixtureConfig(),
      env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'fixture-secret-token', MCP_STRUCTURED_OUTPUT: 'true' },
      clock: { now: () => Date.parse(FETCHED_AT) },
    });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  describe('Paged: {data, nextPage}', () => {
    it('gives an empty page with nextPage null and no incomplete', async () => {
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: { total_count: 0, workflow_runs: [] } });
      const result = await kernel.call('fixture_list_runs', runsArgs);
      expect(structured(result)).to.deep.equal({ data: { total_count: 0, workflow_runs: [] }, nextPage: null });
    });

    it('gives a one-item page as the upstream body, and the same value as the JSON text', async () => {
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: runsPage });
      const result = await kernel.call('fixture_list_runs', { ...runsArgs, outputFormat: 'json' });
      expect(structured(result)).to.deep.equal({ data: runsPage, nextPage: null });
      expect(JSON.parse(textOf(result))).to.deep.equal(structured(result));
    });

    it('gives the projected value as data', async () => {
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: runsPage });
      const result = await kernel.call('fixture_list_runs', { ...runsArgs, jq: 'workflow_runs[*].id' });
      expect(structured(result)).to.deep.equal({ data: [30433642], nextPage: null });
    });

    it('gives the next page from the Link header, the same value the text shows', async () => {
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: runsPage, headers: { link: githubLink(mock.url, 1, 3) } });
      const result = await kernel.call('fixture_list_runs', { ...runsArgs, jq: 'total_count' });
      expect(structured(result)).to.deep.equal({ data: 1, nextPage: 2 });
      expect(textOf(result)).to.equal('nextPage: 2\ndata: 1');
    });

    it('keeps content[0].text in TOON exactly as the tool renders it', async () => {
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: { total_count: 1, workflow_runs: [{ id: 30433642, conclusion: 'failure' }] } });
      const result = await kernel.call('fixture_list_runs', runsArgs);
      expect(textOf(result)).to.equal('nextPage: null\ndata:\n  total_count: 1\n  workflow_runs[1]{id,conclusion}:\n    30433642,failure');
      expect(result.content).to.have.length(1);
    });

    it('reports a jq failure inside data, as the text does', async () => {
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: { total_count: 0, workflow_runs: [] } });
      const result = await kernel.call('fixture_list_runs', { ...runsArgs, jq: 'workflow_runs[', outputFormat: 'json' });
      expect(result.isError).to.equal(undefined);
      expect(structured(result)).to.deep.equal({
        data: {
          _jqError: 'Invalid JMESPath expression: workflow_runs[',
          reason: (structured(result) as { data: { reason: string } }).data.reason,
          nearestPaths: ['workflow_runs', 'workflow_runs[*]', 'total_count'],
          topLevelKeys: ['total_count', 'workflow_runs'],
        },
        nextPage: null,
      });
      expect(JSON.parse(textOf(result))).to.deep.equal(structured(result));
    });

    it('gives data null, with no incomplete, when jq selects nothing', async () => {
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: { total_count: 0, workflow_runs: [] } });
      expect(structured(await kernel.call('fixture_list_runs', { ...runsArgs, jq: 'no_such_field' }))).to.deep.equal({ data: null, nextPage: null });
    });
  });

  describe('CircleCI read: {data, cache}', () => {
    const pipelines = { items: [{ id: '5034460f-c7c4-4c43-9457-de07e2029e7b', state: 'created', number: 42 }], next_page_token: 'AARLwwV' };

    it('carries the cache metadata beside the passthrough body', async () => {
      mock.on('GET', '/project/gh/octo-org/octo-repo/pipeline', { body: pipelines });
      const result = await kernel.call('fixture_circle_get', { path: '/project/gh/octo-org/octo-repo/pipeline', outputFormat: 'json' });
      expect(structured(result)).to.deep.equal({ data: pipelines, cache: { hit: false, ageMs: 0, fetchedAt: FETCHED_AT } });
      expect(JSON.parse(textOf(result))).to.deep.equal(structured(result));
    });

    it('keeps the cache metadata under a projection', async () => {
      mock.on('GET', '/project/gh/octo-org/octo-repo/pipeline', { body: pipelines });
      const result = await kernel.call('fixture_circle_get', { path: '/project/gh/octo-org/octo-repo/pipeline', jq: 'items[*].id' });
      expect(structured(result)).to.deep.equal({ data: ['5034460f-c7c4-4c43-9457-de07e2029e7b'], cache: { hit: false, ageMs: 0, fetchedAt: FETCHED_AT } });
    });
  });

  describe('Atlassian read: {data}, text is the bare body', () => {
    const search = { issues: [{ key: 'PLAT-1' }, { key: 'PLAT-2' }], isLast: true };

    it('wraps the body as data; the JSON text equals data', async () => {
      mock.on('GET', '/rest/api/3/search/jql', { body: search });
      const result = await kernel.call('fixture_atlassian_get', { path: '/rest/api/3/search/jql', outputFormat: 'json' });
      expect(structured(result)).to.deep.equal({ data: search });
      expect(JSON.parse(textOf(result))).to.deep.equal(structured(result)!.data);
    });

    it('projects with jq', async () => {
      mock.on('GET', '/rest/api/3/search/jql', { body: search });
      expect(structured(await kernel.call('fixture_atlassian_get', { path: '/rest/api/3/search/jql', jq: 'issues[*].key' }))).to.deep.equal({
        data: ['PLAT-1', 'PLAT-2'],
      });
    });

    it('gives a text endpoint as a JSON string identical to the text block', async () => {
      const diff = 'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-Hello\n+Hello, wörld\n';
      mock.on('GET', '/2.0/repositories/team/repo/diff/abc', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: diff });
      const result = await kernel.call('fixture_atlassian_get', { path: '/2.0/repositories/team/repo/diff/abc' });
      expect(structured(result)).to.deep.equal({ data: diff });
      expect(textOf(result)).to.equal(diff);
    });

    it('gives a 204 as {"data": {}}', async () => {
      mock.on('GET', '/rest/api/3/issue/PLAT-1/watchers', { status: 204 });
      const result = await kernel.call('fixture_atlassian_get', { path: '/rest/api/3/issue/PLAT-1/watchers' });
      expect(result.isError).to.equal(undefined);
      expect(structured(result)).to.deep.equal({ data: {} });
    });
  });

  describe('tools without a schema, and defects', () => {
    it('leaves writes and artifact_read text only, without outputSchema', async () => {
      mock.on('POST', '/rest/api/3/issue', { status: 201, body: { id: '10003', key: 'PLAT-3' } });
      const result = await kernel.call('fixture_atlassian_post', { path: '/rest/api/3/issue', body: { fields: { summary: 'x' } } });
      expect(result).not.to.have.property('structuredContent');
      const listed = kernel.kernel.listTools('2025-11-25');
      const schemaTools = listed.filter((t) => t.outputSchema !== undefined).map((t) => t.name);
      expect(schemaTools).to.have.members([
        'fixture_get',
        'fixture_list_runs',
        'fixture_circle_get',
        'fixture_atlassian_get',
        'faulty_no_value',
        'faulty_refused',
      ]);
      expect(listed.map((t) => t.name)).to.include('artifact_read');
    });

    it('marks a schema tool that produced no value as incomplete "unavailable", keeping its text', async () => {
      const result = await kernel.call('faulty_no_value', {});
      expect(textOf(result)).to.equal('nothing to report');
      expect(structured(result)).to.deep.equal({ data: null, incomplete: { reason: 'unavailable', bytes: 0, limitBytes: 0, artifactId: null } });
    });
  });
});
