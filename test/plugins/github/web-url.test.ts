import { expect } from 'chai';
import { githubWebUrl } from '../../../plugins/github/github-client.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

// The links of the writes GitHub answers without one (rerun, cancel, dispatch, merge) point at the web GitHub
// that GITHUB_API_URL serves.
describe('GitHub web addresses from GITHUB_API_URL', () => {
  it('github.com, GitHub Enterprise Cloud with data residency, GitHub Enterprise Server, and anything else as given', () => {
    expect(githubWebUrl('https://api.github.com')).to.equal('https://github.com');
    expect(githubWebUrl('https://api.github.com/')).to.equal('https://github.com');
    expect(githubWebUrl('https://api.octocorp.ghe.com')).to.equal('https://octocorp.ghe.com');
    expect(githubWebUrl('https://github.acme.internal/api/v3')).to.equal('https://github.acme.internal');
    expect(githubWebUrl('https://github.acme.internal/api/v3/')).to.equal('https://github.acme.internal');
    expect(githubWebUrl('http://127.0.0.1:8080')).to.equal('http://127.0.0.1:8080');
  });

  describe('a rerun on GitHub Enterprise Server (the API under /api/v3)', () => {
    const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: `${url}/api/v3`, GITHUB_TOKEN: 'ghp_webUrlTestToken0123456789' }) });

    it('sends the request under /api/v3 and links the run on the server itself', async () => {
      t.mock.on('POST', '/api/v3/repos/octo-org/octo-repo/actions/runs/30433642/rerun-failed-jobs', { status: 201, body: {} });
      const result = await t.kernel.call('github_rerun_workflow', { owner: 'octo-org', repo: 'octo-repo', runId: 30433642 });
      expect(result.isError).to.equal(undefined);
      expect(textOf(result)).to.contain(`html_url: "${t.mock.url}/octo-org/octo-repo/actions/runs/30433642"`);
    });
  });
});
