import { expect } from 'chai';
import { assertConforms, checkPluginConformance, type ConformanceCase } from 'mcp-devtools/testing';
import { LinearPlugin } from '../src/index.js';
import { ISSUES } from './linear-api.js';

/**
 * Linear's own answers: the conformance kit's standard corpus holds REST answers (GitHub, CircleCI pages) that
 * no GraphQL tool can get, so the plugin gives its own sample answers instead.
 */
function linearCorpus(): ConformanceCase[] {
  const page = (nodes: unknown[], hasNextPage: boolean) => ({
    body: { data: { issues: { nodes, pageInfo: { hasNextPage, endCursor: (nodes.at(-1) as { id?: string } | undefined)?.id ?? null } } } },
  });
  return [
    { name: 'linear issues, more to come', reply: page(ISSUES.slice(0, 2), true) },
    { name: 'linear issues, last page', reply: page(ISSUES.slice(4), false) },
    { name: 'linear no issues', reply: page([], false) },
    { name: 'linear issue created', reply: { body: { data: { issueCreate: { success: true, issue: { identifier: 'ENG-9', title: 'x', url: 'https://linear.app/acme/issue/ENG-9' } } } } } },
    { name: 'linear viewer', reply: { body: { data: { viewer: { id: 'u-1', name: 'Ada Lovelace' } } } } },
  ];
}

describe('linear plugin: structured-output conformance (SDK client + JSON Schema 2020-12)', function () {
  this.timeout(120_000);

  it('keeps the structured contract on every tool, for every answer and projection', async () => {
    const report = await checkPluginConformance({
      plugins: [LinearPlugin],
      env: (mockUrl) => ({ LINEAR_API_URL: mockUrl, LINEAR_API_KEY: 'lin_api_conformance0000' }),
      corpus: linearCorpus(),
      argsFor: (tool) => ({ linear_graphql: { query: 'query { viewer { name } }' }, linear_list_issues: { team: 'ENG' } })[tool.name],
    });
    assertConforms(report);
    expect(report.tools).to.deep.equal(['linear_list_issues', 'linear_create_issue', 'linear_graphql']);
  });
});
