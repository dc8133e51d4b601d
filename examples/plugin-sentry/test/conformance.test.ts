import { expect } from 'chai';
import { assertConforms, checkPluginConformance, standardCorpus, type ConformanceCase } from 'mcp-devtools/testing';
import { SentryPlugin } from '../src/index.js';
import { ISSUES } from './sentry-api.js';

const link = (next: boolean): string =>
  `<https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:0:1>; rel="previous"; results="false"; cursor="1700000000000:0:1", ` +
  `<https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700000000000:100:0>; rel="next"; results="${next}"; cursor="1700000000000:100:0"`;

/** Sentry's own answers, with the Link headers Sentry sends, beside the standard edge cases. */
function sentryCorpus(): ConformanceCase[] {
  return [
    { name: 'sentry issues, more to come', reply: { headers: { link: link(true) }, body: ISSUES } },
    { name: 'sentry issues, last page', reply: { headers: { link: link(false) }, body: ISSUES.slice(0, 1) } },
    { name: 'sentry empty list', reply: { headers: { link: link(false) }, body: [] } },
  ];
}

describe('sentry plugin: structured-output conformance (SDK client + JSON Schema 2020-12)', function () {
  this.timeout(120_000);

  it('keeps the structured contract on every tool, for every answer and projection', async () => {
    const report = await checkPluginConformance({
      plugins: [SentryPlugin],
      env: (mockUrl) => ({ SENTRY_API_URL: `${mockUrl}/api/0`, SENTRY_TOKEN: 'sntrys_conformance-0000' }),
      corpus: [...standardCorpus(), ...sentryCorpus()],
    });
    assertConforms(report);
    expect(report.tools).to.deep.equal(['sentry_list_issues', 'sentry_get']);
  });
});
