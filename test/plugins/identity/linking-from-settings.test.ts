import { expect } from 'chai';
import { Value } from 'typebox/value';
import { IdentitySettings, type IdentitySettingValues } from '../../../plugins/identity/identity-settings.js';
import { callbackUrl, identityFlows, refreshersOf } from '../../../plugins/identity/linking-from-settings.js';
import { SecretText } from '../../../core/identity/secret-text.js';
import { rejection } from '../../support/async.js';

const defaults = (values: Partial<IdentitySettingValues> = {}): IdentitySettingValues => ({
  ...(Value.Create(IdentitySettings) as IdentitySettingValues),
  ...values,
});

describe('Linking flows from the settings', () => {
  it('offers each vendor whose app is configured, personal tokens where the product is located, CircleCI always', () => {
    const none = identityFlows(defaults(), { publicUrl: 'https://mcp.acme.example' });
    expect(none.redirectFlows).to.deep.equal([]);
    expect(none.githubDevice).to.equal(undefined);
    expect(none.tokenChecks.map((c) => c.vendor)).to.deep.equal(['circleci']);

    const all = identityFlows(
      defaults({
        GITHUB_OAUTH_CLIENT_ID: 'Iv1.abc',
        GITHUB_OAUTH_CLIENT_SECRET: 'github-secret-1234',
        ATLASSIAN_OAUTH_CLIENT_ID: 'atl',
        ATLASSIAN_OAUTH_CLIENT_SECRET: 'atlassian-secret-1234',
        BITBUCKET_OAUTH_CLIENT_ID: 'bb',
        BITBUCKET_OAUTH_CLIENT_SECRET: 'bitbucket-secret-1234',
      }),
      { publicUrl: 'https://mcp.acme.example/', jiraDataCenterUrl: 'https://jira.acme.example', bitbucketDataCenterUrl: 'https://git.acme.example' },
    );
    expect(all.redirectFlows.map((f) => f.vendor)).to.deep.equal(['github', 'atlassian', 'bitbucket']);
    expect(all.githubDevice).not.to.equal(undefined);
    expect(all.tokenChecks.map((c) => c.vendor)).to.deep.equal(['jira-datacenter', 'bitbucket-datacenter', 'circleci']);
    expect(Object.keys(refreshersOf(all)).sort()).to.deep.equal(['atlassian', 'bitbucket', 'github']);
    expect(callbackUrl('https://mcp.acme.example/', 'atlassian')).to.equal('https://mcp.acme.example/identity/callback/atlassian');
  });

  it('a GitHub app without a secret links by device code only; without a public URL no browser link can start', async () => {
    const flows = identityFlows(defaults({ GITHUB_OAUTH_CLIENT_ID: 'Iv1.abc', ATLASSIAN_OAUTH_CLIENT_ID: 'atl', ATLASSIAN_OAUTH_CLIENT_SECRET: 's' }), {
      publicUrl: '',
    });
    expect(flows.redirectFlows.map((f) => f.vendor)).to.deep.equal(['atlassian']);
    expect(flows.githubDevice).not.to.equal(undefined);
    const error = await rejection(flows.redirectFlows[0]!.authorizationUrl('s'.repeat(43), new SecretText('v'.repeat(43))));
    expect(error.message).to.equal(
      "Linking Atlassian Cloud accounts is not set up on this server; ask its operator (the server's public URL is not set, so no callback can reach it).",
    );
  });
});
