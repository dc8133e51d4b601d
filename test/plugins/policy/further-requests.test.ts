// The built-in tools' further requests (issue 16's follow-ups) are decided as the route is: GitHub's /users
// fallback of github_list_repositories and Jira's metadata read of jira_get_attachment, under a policy that
// allows each tool's route but not the path the handler goes on to.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const dir = mkdtempSync(join(tmpdir(), 'further-requests-'));
const policy = join(dir, 'policy.yaml');
writeFileSync(
  policy,
  [
    'version: 1',
    'rules:',
    '  - { id: no-user-repos, effect: deny, reason: Personal repositories are out of scope., match: { vendors: [github], paths: ["/users/*"] } }',
    '  - { id: no-attachment-metadata, effect: deny, match: { vendors: [jira], paths: [/rest/api/3/attachment/10002] } }',
    '  - { id: rest, effect: allow }',
    '',
  ].join('\n'),
);

describe("policy: the built-in tools' further requests are decided like their routes", () => {
  const t = useVendorKernel({
    plugins: ['github', 'jira'],
    env: (url) => ({
      GITHUB_API_URL: url,
      GITHUB_TOKEN: 'ghp_further0000',
      JIRA_BASE_URL: url,
      ATLASSIAN_USER_EMAIL: 'bot@example.com',
      ATLASSIAN_API_TOKEN: 'atl-further-0000',
      MCP_POLICY_FILE: policy,
      // github_list_repositories is in the github.repos toolset, which is not served by default.
      MCP_TOOLSETS: 'all',
    }),
  });

  it("refuses github_list_repositories' /users fallback, naming the plugin and the route it declared", async () => {
    const result = await t.kernel.call('github_list_repositories', { owner: 'octocat' });
    expect(textOf(result)).to.match(
      /^Error: The policy refused GET \/users\/octocat\/repos, a further request of the github plugin's github_list_repositories \(which declares GET \/orgs\/octocat\/repos\), for local: Personal repositories are out of scope\. \(rule no-user-repos;/,
    );
    expect(t.mock.requests.map((r) => r.path)).to.deep.equal(['/orgs/octocat/repos']);
  });

  it("refuses jira_get_attachment's metadata read before anything is downloaded", async () => {
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10002' });
    expect(textOf(result)).to.contain(
      "The policy refused GET /rest/api/3/attachment/10002, a further request of the jira plugin's jira_get_attachment (which declares GET /rest/api/3/attachment/content/10002)",
    );
    expect(t.mock.requests).to.deep.equal([]);
  });
});
