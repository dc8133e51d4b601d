import { expect } from 'chai';
import fc from 'fast-check';
import { directoryListing, fileEntry } from '../../fixtures/github/github-repo-api.js';
import { pathTrick } from '../../support/path-tricks.js';
import { textOf, type TestKernel } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_filesTestToken0123456789';
const REPO = { owner: 'octo-org', repo: 'octo-repo' };
const README = '# octo-repo\n\nA repository for ünïcödé tests ✓.\n\n## Build\n\n```sh\nnpm ci && npm test\n```\n';

async function readBytes(kernel: TestKernel, artifactId: string): Promise<{ bytes: Buffer; mimeType: string }> {
  const parts: Buffer[] = [];
  let mimeType = '';
  for (let offset = 0, eof = false; !eof;) {
    const chunk = JSON.parse(textOf(await kernel.call('artifact_read', { artifactId, offset }))) as {
      data: string;
      nextOffset: number;
      eof: boolean;
      mimeType: string;
    };
    parts.push(Buffer.from(chunk.data, 'base64'));
    ({ nextOffset: offset, eof, mimeType } = chunk);
  }
  return { bytes: Buffer.concat(parts), mimeType };
}

const artifactIdIn = (text: string): string => /artifact ([0-9a-f]{32})/.exec(text)?.[1] ?? '';

describe('github_get_file (contents API mock: base64 with line breaks, listings, raw media type)', () => {
  const t = useVendorKernel({ plugins: ['github'], otherMocks: 1, env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN }) });

  it("shows a text file decoded from GitHub's wrapped base64, at the ref asked for", async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/contents/docs/README.md', (req) => ({
      body: fileEntry('docs/README.md', README, req.query.get('ref') ?? 'main'),
    }));
    const result = await t.kernel.call('github_get_file', { ...REPO, path: 'docs/README.md', ref: 'v1.2.0' });
    const sha = (fileEntry('docs/README.md', README).sha as string).slice(0, 12);
    expect(textOf(result)).to.equal(`File docs/README.md of octo-org/octo-repo at v1.2.0 (${Buffer.byteLength(README)} bytes, sha ${sha}):\n---\n${README}`);
    expect(t.mock.requests[0]!.url).to.equal('/repos/octo-org/octo-repo/contents/docs/README.md?ref=v1.2.0');
  });

  it('encodes each path segment, so a name with spaces, # or ? stays one file', async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/contents/*', (req) => ({ body: fileEntry(decodeURIComponent(req.path.split('/contents/')[1]!), 'x\n') }));
    await t.kernel.call('github_get_file', { ...REPO, path: '/notes/100% done? yes.txt' });
    expect(t.mock.requests[0]!.url).to.equal('/repos/octo-org/octo-repo/contents/notes/100%25%20done%3F%20yes.txt');
  });

  it('lists a directory, and the root for an empty path', async () => {
    const listing = directoryListing([
      { path: 'src', type: 'dir' },
      { path: 'README.md', type: 'file', size: 120 },
      { path: 'vendor/lib', type: 'submodule' },
    ]);
    t.mock.on('GET', '/repos/octo-org/octo-repo/contents', { body: listing });
    const text = textOf(await t.kernel.call('github_get_file', { ...REPO, path: '' }));
    expect(text).to.equal(
      'Directory / of octo-org/octo-repo at the default branch: 3 entries.\ndir        src/\nfile       README.md (120 bytes)\nsubmodule  lib',
    );
  });

  it('saves a binary file as an artifact with its type, byte for byte, and names it', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256))]);
    t.mock.on('GET', '/repos/octo-org/octo-repo/contents/assets/logo.png', { body: fileEntry('assets/logo.png', png) });
    const text = textOf(await t.kernel.call('github_get_file', { ...REPO, path: 'assets/logo.png' }));
    expect(text.split('\n')[0]).to.match(
      /^File assets\/logo\.png of octo-org\/octo-repo at the default branch is binary \(3016 bytes, sha [0-9a-f]{12}\), so it is not shown\.$/,
    );
    expect(text.split('\n')[1]).to.match(
      /^The whole file \(3016 bytes, image\/png\) is artifact [0-9a-f]{32}: read it with artifact_read, artifactId "[0-9a-f]{32}"\.$/,
    );
    const saved = await readBytes(t.kernel, artifactIdIn(text));
    expect(saved.mimeType).to.equal('image/png');
    expect(saved.bytes.equals(png)).to.equal(true);
  });

  it('fetches a file over 1 MB with the raw media type, and shows the start of a long text with the whole as an artifact', async () => {
    const big = Array.from({ length: 40_000 }, (_, i) => `line ${i} of a generated bundle — ünïcödé`).join('\n');
    const entry = fileEntry('dist/bundle.js', big);
    expect(entry.encoding).to.equal('none');
    t.mock.on('GET', '/repos/octo-org/octo-repo/contents/dist/bundle.js', (req) =>
      req.headers.accept === 'application/vnd.github.raw+json'
        ? { headers: { 'content-type': 'application/vnd.github.raw+json; charset=utf-8' }, body: big }
        : { body: entry },
    );
    const text = textOf(await t.kernel.call('github_get_file', { ...REPO, path: 'dist/bundle.js' }));
    expect(text.length).to.be.below(40_000);
    expect(text.split('\n')[0]).to.match(
      /^File dist\/bundle\.js of octo-org\/octo-repo at the default branch \(\d+ bytes, sha [0-9a-f]{12}\): the first \d+ of 40000 lines are shown\.$/,
    );
    expect(text).to.contain('\n---\nline 0 of a generated bundle');
    // The file's own requests (the repository's visibility is read beside them, for its provenance label).
    const fileRequests = t.mock.requests.filter((r) => r.path.includes('/contents/'));
    expect(fileRequests.map((r) => r.headers.accept)).to.deep.equal(['application/vnd.github+json', 'application/vnd.github.raw+json']);
    expect((await readBytes(t.kernel, artifactIdIn(text))).bytes.toString('utf8')).to.equal(big);
  });

  it('says what a symlink points to', async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/contents/latest', {
      body: { type: 'symlink', target: 'releases/v1.2.0', size: 15, name: 'latest', path: 'latest', sha: 'a1b2c3' },
    });
    expect(textOf(await t.kernel.call('github_get_file', { ...REPO, path: 'latest' }))).to.equal(
      'latest of octo-org/octo-repo at the default branch is a symlink to "releases/v1.2.0": read that path for its content.',
    );
  });

  it("reports a path that does not exist with GitHub's 404", async () => {
    t.mock.on('GET', '/repos/octo-org/octo-repo/contents/nope.txt', {
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content', status: '404' },
    });
    const result = await t.kernel.call('github_get_file', { ...REPO, path: 'nope.txt' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 404');
  });

  it('never lets a path climb out of the repository, whatever trick it plays', async () => {
    const evil = t.others[0]!;
    await fc.assert(
      fc.asyncProperty(pathTrick(new URL(evil.url).host), async (path) => {
        t.mock.reset();
        evil.reset();
        const result = await t.kernel.call('github_get_file', { ...REPO, path });
        expect(evil.requests, `${JSON.stringify(path)} reached another host`).to.have.length(0);
        for (const request of t.mock.requests) {
          expect(request.path.startsWith('/repos/octo-org/octo-repo/contents'), `${JSON.stringify(path)} sent ${request.url}`).to.equal(true);
          expect(
            decodeURIComponent(request.path)
              .split('/')
              .some((s) => s === '..' || s === '.'),
            `${JSON.stringify(path)} sent ${request.url}`,
          ).to.equal(false);
        }
        if (result.isError) expect(textOf(result)).to.match(/Code: (invalid_path|upstream_http_error)/);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a path that is not well-formed text (a lone surrogate) as a path, not as a crash', async () => {
    const result = await t.kernel.call('github_get_file', { ...REPO, path: 'src/\ud800.ts' });
    expect(textOf(result)).to.match(/^Error: The path "src\/\\ud800\.ts" does not stay inside the repository .*\nCode: invalid_path$/);
    expect(t.mock.requests).to.have.length(0);
  });

  it('refuses .. with an error that says what a path must be, before any request', async () => {
    const result = await t.kernel.call('github_get_file', { ...REPO, path: 'src/../../other-repo/secrets.txt' });
    expect(textOf(result)).to.equal(
      'Error: The path "src/../../other-repo/secrets.txt" does not stay inside the repository (no "." or ".." segments, backslashes, control characters or "#", in any encoding): give one such as "src/index.ts".\nCode: invalid_path',
    );
    expect(t.mock.requests).to.have.length(0);
  });
});
