import { expect } from 'chai';
import { pullRequestDiff } from '../../fixtures/github/github-repo-api.js';
import { readTextArtifact } from '../../support/artifact-reader.js';
import { fenceOf, unfencedText } from '../../support/fences.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_diffTestToken0123456789';
const PR_PATH = '/repos/octo-org/octo-repo/pulls/1347';
const ARGS = { owner: 'octo-org', repo: 'octo-repo', pullNumber: 1347 };
const DIFF_HEADERS = { 'content-type': 'application/vnd.github.diff; charset=utf-8' };

describe('github_get_pull_request_diff (GitHub-shaped mock serving the diff media type)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN }) });

  it('asks for the diff media type and shows a small diff whole under a summary', async () => {
    const diff = pullRequestDiff(2);
    t.mock.on('GET', PR_PATH, { headers: DIFF_HEADERS, body: diff });
    const result = await t.kernel.call('github_get_pull_request_diff', ARGS);
    // A diff does not say who wrote it: it is untrusted, and shown inside the fence the result states.
    const fence = fenceOf(result)!;
    expect((result.content[0] as { text: string }).text).to.equal(
      `Untrusted text is fenced: ${fence.open}…${fence.close}\n${fence.open}${unfencedText(result)}${fence.close}`,
    );
    expect(unfencedText(result)).to.equal(`Diff of pull request #1347 of octo-org/octo-repo: 2 files changed, +8 -6.\n---\n${diff.trimEnd()}`);
    expect(t.mock.requests[0]!.headers.accept).to.equal('application/vnd.github.diff');
    expect(t.mock.requests[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(result).not.to.have.property('structuredContent');
  });

  it('cuts a large diff at a line end within the text limit, names the files not shown whole, and saves it all', async () => {
    const diff = pullRequestDiff(150, 20); // about 270 KB
    t.mock.on('GET', PR_PATH, { headers: DIFF_HEADERS, body: diff });
    const text = unfencedText(await t.kernel.call('github_get_pull_request_diff', ARGS));
    expect(text.length).to.be.below(40_000);
    expect(text).not.to.contain('Response Truncated');
    const [summary, shown, saved, separator] = text.split('\n');
    expect(summary).to.equal('Diff of pull request #1347 of octo-org/octo-repo: 150 files changed, +3150 -3000.');
    expect(shown).to.match(
      /^Shown: the first \d+ of 6900 lines \(the diff is longer than 38000 characters\)\. Not shown whole: src\/module-\d+\.ts, .* and \d+ more\.$/,
    );
    expect(saved).to.match(
      /^The whole diff \(\d+ bytes, text\/x-diff\) is artifact [0-9a-f]{32}: read it with artifact_read, artifactId "[0-9a-f]{32}", encoding "utf8"\.$/,
    );
    expect(separator).to.equal('---');
    const body = text.split('\n---\n')[1]!;
    expect(diff.startsWith(`${body}\n`)).to.equal(true);
    expect(await readTextArtifact(t.kernel, /artifact ([0-9a-f]{32})/.exec(text)![1]!)).to.equal(diff);
  });

  it('says an empty diff changes nothing', async () => {
    t.mock.on('GET', PR_PATH, { headers: DIFF_HEADERS, body: '' });
    expect(unfencedText(await t.kernel.call('github_get_pull_request_diff', ARGS))).to.equal(
      'The diff of pull request #1347 of octo-org/octo-repo is empty: it changes nothing.',
    );
  });

  it("turns GitHub's refusal of a huge diff (406) into what to do instead", async () => {
    t.mock.on('GET', PR_PATH, {
      status: 406,
      body: {
        message:
          "Sorry, the diff exceeded the maximum number of files (300). Consider using 'List pull requests files' API or locally cloning the repository instead.",
        errors: [{ resource: 'PullRequest', field: 'diff', code: 'too_large' }],
        documentation_url: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
        status: '406',
      },
    });
    const result = await t.kernel.call('github_get_pull_request_diff', ARGS);
    expect(result.isError).to.equal(true);
    const text = unfencedText(result);
    expect(text.split('\n')[0]).to.equal(
      `Error: The diff of pull request #1347 of octo-org/octo-repo was not read: GitHub refuses to produce a diff this large. List its changed files, each with its patch, with github_get on "${PR_PATH}/files" (per_page, page).`,
    );
    expect(text).to.contain('HTTP Status: 406');
    expect(text).to.contain('the diff exceeded the maximum number of files (300)');
  });

  it('never shows or saves the configured token, even inside a diff', async () => {
    t.mock.on('GET', PR_PATH, { headers: DIFF_HEADERS, body: `${pullRequestDiff(1)}+GITHUB_TOKEN=${TOKEN}\n` });
    const text = unfencedText(await t.kernel.call('github_get_pull_request_diff', ARGS));
    expect(text).to.contain('+GITHUB_TOKEN=[REDACTED]');
    expect(text).not.to.contain(TOKEN);
  });
});
