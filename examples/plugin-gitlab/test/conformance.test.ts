import { expect } from 'chai';
import { assertConforms, checkPluginConformance, standardCorpus, type ConformanceCase } from 'mcp-devtools/testing';
import { GitlabPlugin } from '../src/index.js';
import { fixture } from './gitlab-api.js';

/** GitLab's own answers, with the headers GitLab sends, beside the standard edge cases. */
function gitlabCorpus(): ConformanceCase[] {
  const pages = { 'x-page': '1', 'x-per-page': '20', 'x-total': '61', 'x-total-pages': '4' };
  return [
    { name: 'gitlab pipelines, more to come', reply: { headers: { ...pages, 'x-next-page': '2', 'x-prev-page': '' }, body: fixture('pipelines') } },
    { name: 'gitlab pipelines, last page', reply: { headers: { ...pages, 'x-page': '4', 'x-next-page': '', 'x-prev-page': '3' }, body: fixture('pipelines').slice(0, 1) } },
    { name: 'gitlab jobs with unicode names', reply: { headers: { 'x-next-page': '' }, body: fixture('pipeline-jobs') } },
    { name: 'gitlab empty list', reply: { headers: { 'x-next-page': '', 'x-total': '0', 'x-total-pages': '1' }, body: [] } },
  ];
}

describe('gitlab plugin: structured-output conformance (SDK client + JSON Schema 2020-12)', function () {
  this.timeout(120_000);

  it('keeps the structured contract on every tool, for every answer and projection', async () => {
    const report = await checkPluginConformance({
      plugins: [GitlabPlugin],
      env: (mockUrl) => ({ GITLAB_API_URL: `${mockUrl}/api/v4`, GITLAB_TOKEN: 'glpat-conformance-0000' }),
      corpus: [...standardCorpus(), ...gitlabCorpus()],
    });
    assertConforms(report);
    expect(report.tools).to.deep.equal(['gitlab_list_pipelines', 'gitlab_list_pipeline_jobs', 'gitlab_get']);
    for (const tool of report.tools) expect(report.tally[tool]?.spilled, `${tool} spilled the huge page to an artifact`).to.be.greaterThan(0);
  });
});
