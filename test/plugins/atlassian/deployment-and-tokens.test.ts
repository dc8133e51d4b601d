import { expect } from 'chai';
import { resolveDeployment } from '../../../plugins/atlassian/deployment.js';
import type { UpstreamRequest } from '../../../core/plugin/upstream-types.js';
import { jsonReply } from '../../fixtures/atlassian/corpus-kit.js';
import { runCli } from '../../support/run-cli.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { ACCOUNT, basicHeader } from './atlassian-calls.js';

const PAT = 'OTk5ODg3NzY2NTU0-pat-for-settings-test';

describe('Atlassian deployment (Cloud or Data Center) per product', () => {
  it('is Cloud on an atlassian.net host and Data Center elsewhere, unless the setting names one', () => {
    expect(resolveDeployment('auto', 'https://acme.atlassian.net', 'JIRA_DEPLOYMENT')).to.equal('cloud');
    expect(resolveDeployment('auto', 'https://jira.acme.example/jira', 'JIRA_DEPLOYMENT')).to.equal('datacenter');
    expect(resolveDeployment('', 'https://evil-atlassian.net.example', 'JIRA_DEPLOYMENT')).to.equal('datacenter');
    expect(resolveDeployment('cloud', 'http://127.0.0.1:8080', 'JIRA_DEPLOYMENT')).to.equal('cloud');
    expect(resolveDeployment('DataCenter', 'https://acme.atlassian.net', 'JIRA_DEPLOYMENT')).to.equal('datacenter');
    expect(resolveDeployment('server', 'https://acme.atlassian.net', 'JIRA_DEPLOYMENT')).to.equal('datacenter');
    expect(() => resolveDeployment('on-prem', 'https://acme.atlassian.net', 'CONFLUENCE_DEPLOYMENT')).to.throw(
      'CONFLUENCE_DEPLOYMENT is "on-prem": set it to "cloud", "datacenter" or "auto".',
    );
  });

  it('stops start-up on a deployment it does not know, naming the setting', async () => {
    let kernel: TestKernel | undefined;
    try {
      kernel = await startTestKernel({ configFile: { content: JSON.stringify({ plugins: ['jira'] }) }, env: { ...ACCOUNT, JIRA_DEPLOYMENT: 'mainframe' } });
      expect.fail('start-up should have failed');
    } catch (error) {
      expect((error as Error).message).to.contain('JIRA_DEPLOYMENT is "mainframe"');
    } finally {
      await kernel?.close();
    }
  });

  it('decides each product on its own: Jira on Data Center, Confluence on Cloud', async () => {
    const kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['jira', 'confluence'] }) },
      env: { ...ACCOUNT, JIRA_BASE_URL: 'https://jira.acme.example' },
    });
    try {
      const route = (tool: string, args: Record<string, unknown>): string => {
        const definition = kernel.kernel.definitions().find((d) => d.spec.name === tool)!;
        return definition.upstream!.prepare(definition.spec.route!(args, definition.upstream) as UpstreamRequest).url.href;
      };
      expect(route('jira_get_issue', { issueKey: 'OPS-1' })).to.match(/^https:\/\/jira\.acme\.example\/rest\/api\/2\/issue\/OPS-1\?/);
      expect(route('conf_get_page', { pageId: '1' })).to.match(/^https:\/\/acme\.atlassian\.net\/wiki\/api\/v2\/pages\/1\?body-format=storage$/);
    } finally {
      await kernel.close();
    }
  });
});

describe('Atlassian personal access tokens (Bearer) beside Basic', () => {
  const t = useVendorKernel({
    plugins: ['jira', 'confluence'],
    env: (url) => ({ ...ACCOUNT, JIRA_BASE_URL: url, JIRA_PERSONAL_TOKEN: PAT, CONFLUENCE_BASE_URL: url, CONFLUENCE_API_PREFIXES: '/rest/' }),
  });

  it('sends the token as Bearer for every Jira tool, passthroughs included, while Confluence keeps Basic', async () => {
    t.mock.on('GET', '/rest/api/2/myself', jsonReply('{"name":"mia"}'));
    t.mock.on('GET', '/rest/api/content/7', jsonReply('{"id":"7","title":"T","body":{"storage":{"value":"<p>x</p>"}}}'));
    expect(textOf(await t.kernel.call('jira_get', { path: '/rest/api/2/myself' }))).to.equal('name: mia');
    await t.kernel.call('conf_get_page', { pageId: '7' });
    expect(t.mock.requests.map((r) => r.headers.authorization)).to.deep.equal([
      `Bearer ${PAT}`,
      basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN),
    ]);
  });

  it('needs no email or API token beside it, and names it as the credential', async () => {
    const kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['jira'] }) },
      env: { JIRA_BASE_URL: t.mock.url, JIRA_PERSONAL_TOKEN: PAT },
    });
    try {
      t.mock.on('GET', '/rest/api/2/myself', jsonReply('{"name":"mia"}'));
      expect(textOf(await kernel.call('jira_get', { path: '/rest/api/2/myself' }))).to.equal('name: mia');
      expect(kernel.kernel.definitions().find((d) => d.spec.name === 'jira_get')!.upstream!.identity.credential).to.equal('JIRA_PERSONAL_TOKEN');
    } finally {
      await kernel.close();
    }
  });

  it('says what to set when neither a token nor the account is configured', async () => {
    const kernel = await startTestKernel({ configFile: { content: JSON.stringify({ plugins: ['jira'] }) }, env: { JIRA_BASE_URL: t.mock.url } });
    try {
      const text = textOf(await kernel.call('jira_search', { jql: 'project = OPS' }));
      expect(text).to.contain('missing_credentials');
      expect(text).to.contain('set ATLASSIAN_USER_EMAIL, ATLASSIAN_API_TOKEN');
      expect(text).to.contain('JIRA_PERSONAL_TOKEN (a personal access token) replaces both');
      expect(t.mock.requests).to.have.length(0);
    } finally {
      await kernel.close();
    }
  });

  it('is masked by `mcp-devtools config`', async () => {
    const run = await runCli(['config'], { env: { JIRA_PERSONAL_TOKEN: PAT, CONFLUENCE_PERSONAL_TOKEN: `${PAT}-c` } });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/JIRA_PERSONAL_TOKEN/);
    expect(run.stdout).to.match(/CONFLUENCE_PERSONAL_TOKEN/);
    expect(run.stdout).not.to.contain(PAT);
  });
});
