import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { outsiderIssue, repository } from '../../support/attack-github.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import type { ProvenanceLabel as Label } from '../../../core/plugin/provenance.js';

// Trust derivation for GitHub against answers shaped as GitHub documents them: every author_association value,
// a missing one, a bot the operator trusts, and a visibility lookup that fails (which never loses the result).

const provenanceOf = (result: CallToolResult): { labels: Label[]; warnings?: string[] } =>
  result._meta!['mcp-devtools/provenance'] as { labels: Label[]; warnings?: string[] };

const ASSOCIATIONS: Array<[string | undefined, 'trusted' | 'untrusted']> = [
  ['OWNER', 'trusted'],
  ['MEMBER', 'trusted'],
  ['COLLABORATOR', 'trusted'],
  ['CONTRIBUTOR', 'untrusted'],
  ['FIRST_TIME_CONTRIBUTOR', 'untrusted'],
  ['FIRST_TIMER', 'untrusted'],
  ['NONE', 'untrusted'],
  ['MANNEQUIN', 'untrusted'],
  [undefined, 'untrusted'],
];

describe('GitHub provenance labels (in-process, GitHub-shaped mock)', () => {
  const t = useVendorKernel({
    plugins: ['github'],
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_labelsTestToken0123456789', MCP_TRUSTED_BOTS: 'dependabot[bot]' }),
  });
  beforeEach(() => t.mock.reset());

  it('derives trust from every author_association GitHub documents; a missing one is untrusted', async () => {
    t.mock.on('GET', '/repos/acme/site', { body: repository('acme', 'site', false) });
    const issues = ASSOCIATIONS.map(([association], i) => {
      const issue = outsiderIssue('acme', 'site', i + 1, `body ${i}`);
      if (association === undefined) delete issue.author_association;
      else issue.author_association = association;
      return issue;
    });
    t.mock.on('GET', '/repos/acme/site/issues', { body: issues });
    const result = await t.kernel.call('github_list_issues', { owner: 'acme', repo: 'site' });
    const labels = provenanceOf(result).labels;
    expect(labels.map((l) => l.integrity)).to.deep.equal(ASSOCIATIONS.map(([, want]) => want));
    expect(labels.at(-1)!.why).to.equal('no author_association; repository public');
    expect(labels.every((l) => l.confidentiality === 'public')).to.equal(true);
    // Trusted text is shown as written; untrusted text inside the fence.
    expect(textOf(result)).to.contain('body 0');
    expect(textOf(result)).not.to.match(/<\d+>body 0<\/\d+>/);
  });

  it('trusts a bot named in MCP_TRUSTED_BOTS whatever its association, and says why', async () => {
    t.mock.on('GET', '/repos/acme/site', { body: repository('acme', 'site', false) });
    const bot = { ...outsiderIssue('acme', 'site', 7, 'Bump undici'), user: { login: 'dependabot[bot]' }, author_association: 'NONE' };
    t.mock.on('GET', '/repos/acme/site/issues/7', { body: bot });
    const [label] = provenanceOf(await t.kernel.call('github_get_issue', { owner: 'acme', repo: 'site', issueNumber: 7 })).labels;
    expect(label).to.include({ integrity: 'trusted', why: 'author_association NONE; repository public; dependabot[bot] is named in MCP_TRUSTED_BOTS' });
  });

  it('labels private when the visibility lookup is refused (403), with a warning, and keeps the result', async () => {
    // A repository not read before (visibility is remembered for a minute per repository).
    t.mock.on('GET', '/repos/acme/guarded', {
      status: 403,
      body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' },
    });
    t.mock.on('GET', '/repos/acme/guarded/issues/12', { body: outsiderIssue('acme', 'guarded') });
    const result = await t.kernel.call('github_get_issue', { owner: 'acme', repo: 'guarded', issueNumber: 12 });
    expect(result.isError, textOf(result)).to.equal(undefined);
    const provenance = provenanceOf(result);
    expect(provenance.labels[0]).to.include({ integrity: 'untrusted', confidentiality: 'private', assumed: true });
    expect(provenance.warnings![0]).to.match(/^The visibility of acme\/guarded could not be read \(.*403.*\): its items are labelled private\.$/);
    expect(textOf(result)).to.contain('Docs: please add the deployment notes');
  });

  it('reads a private repository as private, and its pull requests from their own base.repo without a lookup', async () => {
    const pr = { ...outsiderIssue('acme', 'secret', 3, 'PR body'), base: { repo: repository('acme', 'secret', true) }, author_association: 'MEMBER' };
    t.mock.on('GET', '/repos/acme/secret/pulls/3', { body: pr });
    const result = await t.kernel.call('github_get_pull_request', { owner: 'acme', repo: 'secret', pullNumber: 3 });
    expect(provenanceOf(result).labels[0]).to.include({
      integrity: 'trusted',
      confidentiality: 'private',
      why: 'author_association MEMBER; repository private',
    });
    expect(t.mock.requests.map((r) => r.path)).to.deep.equal(['/repos/acme/secret/pulls/3']);
  });
});
