import { expect } from 'chai';
import type { ArtifactStore } from '../../../core/artifacts/artifact-store.js';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { TOKENS } from '../../../core/tokens.js';
import { BitbucketDownloads } from '../../support/bitbucket-downloads.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { basicHeader } from '../atlassian/atlassian-calls.js';

const APP_PASSWORD = { ATLASSIAN_BITBUCKET_USERNAME: 'mia-k', ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-ATBB-upload-7d2e' };
const WHERE = { workspace: 'acme', repoSlug: 'checkout-service' };
const DOWNLOADS = '/2.0/repositories/acme/checkout-service/downloads';

/** Every byte value, so any decoding on the way would show. */
const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) % 256));

describe('bb_upload (in-process, against a Bitbucket Downloads mock that keeps the raw multipart bytes)', () => {
  let bitbucket: BitbucketDownloads;
  let kernel: TestKernel;

  before(async () => {
    bitbucket = await BitbucketDownloads.start();
    kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['bitbucket'] }) },
      env: {
        ...APP_PASSWORD,
        BITBUCKET_BASE_URL: bitbucket.url,
        UPLOAD_MAX_FILE_BYTES: '8192',
        UPLOAD_MAX_TOTAL_BYTES: '12288',
        MCP_STRUCTURED_OUTPUT: 'true',
      },
    });
  });
  after(async () => {
    await kernel.close();
    await bitbucket.close();
  });
  beforeEach(() => bitbucket.reset());

  const upload = (args: Record<string, unknown>) => kernel.call('bb_upload', { ...WHERE, ...args });
  const posts = (): number => bitbucket.requests.filter((r) => r.method === 'POST').length;

  it('uploads base64 content byte for byte as multipart "files", after checking the names, and reports it', async () => {
    const result = await upload({ files: [{ name: 'coverage.bin', content: BINARY.toString('base64').replace(/.{76}/g, '$&\n') }] });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(bitbucket.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal([`GET ${DOWNLOADS}?pagelen=100&page=1`, `POST ${DOWNLOADS}`]);
    const post = bitbucket.requests[1]!;
    expect(post.headers['content-type']).to.match(/^multipart\/form-data; boundary=/);
    expect(post.headers.authorization).to.equal(basicHeader(APP_PASSWORD.ATLASSIAN_BITBUCKET_USERNAME, APP_PASSWORD.ATLASSIAN_BITBUCKET_APP_PASSWORD));
    const [part] = bitbucket.uploads()[0]!;
    expect([part!.field, part!.filename, part!.contentType]).to.deep.equal(['files', 'coverage.bin', 'application/octet-stream']);
    expect(part!.bytes.equals(BINARY)).to.equal(true);
    const file = {
      name: 'coverage.bin',
      size: 4096,
      mimeType: 'application/octet-stream',
      replaced: false,
      downloadUrl: `${bitbucket.url}${DOWNLOADS}/coverage.bin`,
    };
    expect(result.structuredContent).to.deep.equal({ data: { ...WHERE, files: [file] } });
    expect(textOf(result)).to.contain('files[1]{name,size,mimeType,replaced,downloadUrl}:\n  coverage.bin,4096,application/octet-stream,false,');
  });

  it("uploads one of the caller's artifacts (a saved log) with its type", async () => {
    const log = 'npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\n';
    const { artifactId } = await kernel.kernel.resolve<ArtifactStore>(TOKENS.ArtifactStore).save(LOCAL_PRINCIPAL, 'text/plain', log);
    const result = await upload({ files: [{ name: 'job-1262.log', artifactId }] });
    expect(result.isError, textOf(result)).to.equal(undefined);
    const [part] = bitbucket.uploads()[0]!;
    expect([part!.filename, part!.contentType, part!.bytes.toString('utf8')]).to.deep.equal(['job-1262.log', 'text/plain', log]);
  });

  it("refuses another principal's artifact as not found, before any request", async () => {
    const { artifactId } = await kernel.kernel
      .resolve<ArtifactStore>(TOKENS.ArtifactStore)
      .save({ subject: 'bob', groups: [], via: 'tokens' }, 'text/plain', "bob's log");
    const result = await upload({ files: [{ name: 'b.log', artifactId }] });
    expect(textOf(result)).to.equal('Error: Artifact not found or expired\nCode: artifact_not_found');
    expect(bitbucket.requests).to.have.length(0);
  });

  it('refuses a name that exists, listing every page, unless replace is true; then reports it replaced', async () => {
    for (let i = 0; i < 150; i++) bitbucket.seed(`build-${i}.zip`, 'old');
    const refused = await upload({
      files: [
        { name: 'build-120.zip', content: 'bmV3' },
        { name: 'notes.txt', content: 'aGk=' },
      ],
    });
    expect(textOf(refused)).to.equal(
      'Error: Upload refused, nothing was sent: "build-120.zip" already exist in acme/checkout-service Downloads. Choose other names, or pass replace: true to overwrite them.\nCode: upload_refused',
    );
    expect(bitbucket.requests.map((r) => r.url)).to.deep.equal([`${DOWNLOADS}?pagelen=100&page=1`, `${DOWNLOADS}?pagelen=100&page=2`]);
    const replaced = await upload({ files: [{ name: 'build-120.zip', content: 'bmV3' }], replace: true });
    expect((replaced.structuredContent as { data: { files: Array<{ replaced: boolean }> } }).data.files[0]!.replaced).to.equal(true);
    expect(bitbucket.files.get('build-120.zip')!.bytes.toString()).to.equal('new');
  });

  it('uploads several files in one request, within the total limit', async () => {
    const result = await upload({
      files: [
        { name: 'a.txt', content: Buffer.from('alpha').toString('base64'), mimeType: 'Text/Plain' },
        { name: 'ünïcödé ✓.txt', content: Buffer.from('beta').toString('base64') },
      ],
    });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(bitbucket.uploads()[0]!.map((p) => [p.filename, p.contentType, p.bytes.toString()])).to.deep.equal([
      ['a.txt', 'text/plain', 'alpha'],
      ['ünïcödé ✓.txt', 'application/octet-stream', 'beta'],
    ]);
    expect(posts()).to.equal(1);
  });

  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'a file over UPLOAD_MAX_FILE_BYTES',
      { files: [{ name: 'big.bin', content: Buffer.alloc(8193).toString('base64') }] },
      /"big\.bin" is larger than UPLOAD_MAX_FILE_BYTES \(8192 bytes\)/,
    ],
    [
      'files over UPLOAD_MAX_TOTAL_BYTES',
      {
        files: [
          { name: 'a', content: Buffer.alloc(8000).toString('base64') },
          { name: 'b', content: Buffer.alloc(8000).toString('base64') },
        ],
      },
      /more than UPLOAD_MAX_TOTAL_BYTES \(12288 bytes\)/,
    ],
    ['content that is not base64', { files: [{ name: 'x', content: 'not base64!' }] }, /the content of "x" is not base64/],
    ['a data: URL', { files: [{ name: 'x', content: 'data:text/plain;base64,aGk=' }] }, /is a data: URL/],
    [
      'both content and artifactId',
      { files: [{ name: 'x', content: 'aGk=', artifactId: 'f'.repeat(32) }] },
      /needs exactly one of content \(base64\) and artifactId/,
    ],
    ['neither', { files: [{ name: 'x' }] }, /needs exactly one of content/],
    ['a name with a slash', { files: [{ name: '../x', content: 'aGk=' }] }, /holds a character file names cannot/],
    ['a name that is not well-formed text', { files: [{ name: 'report\ud800.txt', content: 'aGk=' }] }, /is not well-formed text/],
    [
      'the same name twice',
      {
        files: [
          { name: 'A.txt', content: 'aGk=' },
          { name: 'a.txt', content: 'aGk=' },
        ],
      },
      /"a\.txt" appears more than once/,
    ],
    ['empty content', { files: [{ name: 'x', content: '' }] }, /"x" is empty/],
    ['a bad mime type', { files: [{ name: 'x', content: 'aGk=', mimeType: 'text/plain; charset=utf-8' }] }, /is not a type\/subtype media type/],
  ];
  for (const [what, args, message] of refusals) {
    it(`refuses ${what} before sending anything`, async () => {
      const result = await upload(args);
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.match(message);
      expect(textOf(result)).to.match(/^Error: Upload refused, nothing was sent: .*\nCode: upload_refused$/);
      expect(bitbucket.requests).to.have.length(0);
    });
  }

  it('never retries an upload, and says the outcome is unknown after a 5xx', async () => {
    bitbucket.failNextUpload = { status: 503, body: { type: 'error', error: { message: 'Service unavailable' } } };
    const result = await upload({ files: [{ name: 'x.txt', content: 'aGk=' }] });
    expect(textOf(result)).to.contain(`The upload's outcome is unknown: Bitbucket answered 503`);
    expect(textOf(result)).to.contain('list /repositories/acme/checkout-service/downloads with bb_get before trying again');
    expect(posts()).to.equal(1);
  });

  it('says nothing was uploaded when Bitbucket refuses', async () => {
    bitbucket.failNextUpload = { status: 403, body: { type: 'error', error: { message: 'You do not have write access' } } };
    const result = await upload({ files: [{ name: 'x.txt', content: 'aGk=' }] });
    expect(textOf(result)).to.match(/^Error: Bitbucket answered 403 .* Nothing was uploaded\./);
    expect(textOf(result)).to.contain('You do not have write access');
  });

  it('reports a repository Bitbucket does not know while listing, before any upload', async () => {
    const result = await kernel.call('bb_upload', { workspace: 'acme', repoSlug: 'nope', files: [{ name: 'x', content: 'aGk=' }] });
    expect(textOf(result)).to.contain('Bitbucket answered 404');
    expect(textOf(result)).to.contain('(while listing /repositories/acme/nope/downloads to check for names that exist; nothing was uploaded)');
    expect(posts()).to.equal(0);
  });

  it('refuses a workspace or repository that is not a slug or {uuid} before any request', async () => {
    for (const where of [
      { workspace: '../x', repoSlug: 'r' },
      { workspace: 'acme', repoSlug: 'r?x=1' },
    ]) {
      const result = await kernel.call('bb_upload', { ...where, files: [{ name: 'x', content: 'aGk=' }] });
      expect(textOf(result)).to.contain('Code: invalid_arguments');
    }
    expect(bitbucket.requests).to.have.length(0);
  });
});
