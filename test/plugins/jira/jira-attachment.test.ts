import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { attachmentMeta, pngOfSize, serveAttachment, TINY_IMAGES } from '../../fixtures/atlassian/jira-attachments.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { ACCOUNT, basicHeader } from '../atlassian/atlassian-calls.js';

const imageOf = (result: CallToolResult): { data: string; mimeType: string } | undefined => {
  const block = result.content[1];
  return block?.type === 'image' ? { data: block.data, mimeType: block.mimeType } : undefined;
};

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('jira_get_attachment (Jira mock redirecting to a media host mock)', () => {
  // The media host mock is on loopback, where the egress guard allows only what the operator names.
  const t = useVendorKernel({
    plugins: ['jira'],
    otherMocks: 1,
    env: (url, [mediaUrl]) => ({ ...ACCOUNT, JIRA_BASE_URL: url, MCP_FENCE: 'false', MCP_EGRESS_ALLOW: new URL(mediaUrl!).host }),
  });
  const jira = (): MockUpstream => t.mock;
  const media = (): MockUpstream => t.others[0]!;

  it('returns a PNG as an image block, byte for byte, after a text line naming it', async () => {
    const png = pngOfSize(300_000);
    serveAttachment(jira(), media(), '10001', { filename: 'checkout-error.png', mimeType: 'image/png' }, png);
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10001' });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(textOf(result)).to.equal('Attachment 10001 ("checkout-error.png", image/png, 300000 bytes): shown below as image/png.');
    const image = imageOf(result)!;
    expect(image.mimeType).to.equal('image/png');
    expect(Buffer.from(image.data, 'base64').equals(png)).to.equal(true);
    expect(result).not.to.have.property('structuredContent');
  });

  it("sends Jira's credentials to Jira only: the media host gets the signed URL without them", async () => {
    serveAttachment(jira(), media(), '10001', { filename: 'a.png', mimeType: 'image/png' }, TINY_IMAGES['image/png']);
    await t.kernel.call('jira_get_attachment', { attachmentId: '10001' });
    expect(jira().requests.map((r) => [r.path, r.headers.authorization])).to.deep.equal([
      ['/rest/api/3/attachment/10001', basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN)],
      ['/rest/api/3/attachment/content/10001', basicHeader(ACCOUNT.ATLASSIAN_USER_EMAIL, ACCOUNT.ATLASSIAN_API_TOKEN)],
    ]);
    expect(media().requests).to.have.length(1);
    expect(media().requests[0]!.headers.authorization).to.equal(undefined);
    expect(media().requests[0]!.query.get('token')).to.equal('eyJhbGciOiJIUzI1NiJ9.c2lnbmVk.c2ln');
  });

  for (const [mimeType, bytes] of Object.entries(TINY_IMAGES)) {
    it(`recognises ${mimeType} by its bytes, whatever type the uploader declared`, async () => {
      serveAttachment(jira(), media(), '10002', { filename: 'screenshot', mimeType: 'image/png' }, bytes);
      const image = imageOf(await t.kernel.call('jira_get_attachment', { attachmentId: '10002' }))!;
      expect(image.mimeType).to.equal(mimeType);
      expect(Buffer.from(image.data, 'base64').equals(bytes)).to.equal(true);
    });
  }

  it('refuses an attachment that is not an image without downloading it, naming jira_get for its metadata', async () => {
    serveAttachment(jira(), media(), '10003', { filename: 'build.log', mimeType: 'text/plain' }, Buffer.from('npm ERR! code 1\n'));
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10003' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.equal(
      'Error: Attachment 10003 ("build.log", text/plain, 16 bytes) is not an image; this tool returns PNG, JPEG, GIF and WebP images up to 5 MiB. Read its metadata with jira_get on "/rest/api/3/attachment/10003".\nCode: unsupported_content',
    );
    expect(jira().requests.map((r) => r.path)).to.deep.equal(['/rest/api/3/attachment/10003']);
    expect(media().requests).to.have.length(0);
  });

  it('refuses an image over 5 MiB from its metadata, before any download', async () => {
    jira().on('GET', '/rest/api/3/attachment/10004', {
      body: attachmentMeta('10004', { filename: 'huge.png', mimeType: 'image/png', size: 5 * 1024 * 1024 + 1 }),
    });
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10004' });
    expect(textOf(result)).to.match(/^Error: Attachment 10004 \("huge\.png", image\/png, 5242881 bytes\) is larger than 5 MiB; .*\nCode: unsupported_content$/);
    expect(jira().requests).to.have.length(1);
  });

  it('refuses bytes that are not an image even when declared as one (a login page from a proxy)', async () => {
    serveAttachment(
      jira(),
      media(),
      '10005',
      { filename: 'photo.jpg', mimeType: 'image/jpeg' },
      Buffer.from('<!DOCTYPE html><html><body>Log in</body></html>'),
    );
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10005' });
    expect(textOf(result)).to.contain('does not hold the bytes of a PNG, JPEG, GIF or WebP image');
    expect(textOf(result)).to.contain('Code: unsupported_content');
  });

  it('refuses more than 5 MiB of bytes when the metadata understated the size', async () => {
    const big = pngOfSize(5 * 1024 * 1024 + 10);
    serveAttachment(jira(), media(), '10006', { filename: 'big.png', mimeType: 'image/png' }, big);
    jira().on('GET', '/rest/api/3/attachment/10006', { body: attachmentMeta('10006', { filename: 'big.png', mimeType: 'image/png', size: 1000 }) });
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10006' });
    expect(textOf(result)).to.contain('is larger than 5 MiB (5242890 bytes came)');
  });

  it('reports an attachment Jira does not know with its 404', async () => {
    jira().on('GET', '/rest/api/3/attachment/404', { status: 404, body: { errorMessages: ["The attachment with id '404' does not exist"], errors: {} } });
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '404' });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 404');
    expect(textOf(result)).to.contain('does not exist');
  });

  it('refuses an id that is not a Jira attachment id before any request', async () => {
    for (const attachmentId of ['../issue/PROJ-1', '10001?x=1', 'abc']) {
      expect(textOf(await t.kernel.call('jira_get_attachment', { attachmentId })), attachmentId).to.contain('Code: invalid_arguments');
    }
    expect(jira().requests).to.have.length(0);
  });
});

describe("jira_get_attachment: an attachment redirect into the server's own network (issue 42)", () => {
  // No MCP_EGRESS_ALLOW: the "media host" is an internal service on loopback, as in the review.
  const t = useVendorKernel({ plugins: ['jira'], otherMocks: 1, env: (url) => ({ ...ACCOUNT, JIRA_BASE_URL: url, MCP_FENCE: 'false' }) });

  it('is refused: nothing is sent to the internal service, and no byte of it comes back', async () => {
    const internal = t.others[0]!;
    serveAttachment(t.mock, internal, '10001', { filename: 'a.png', mimeType: 'image/png' }, TINY_IMAGES['image/png']);
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10001' });
    expect(textOf(result)).to.equal(
      `Error: Jira redirected GET /rest/api/3/attachment/content/10001 to another origin (${internal.url}); it is not followed: 127.0.0.1 is a loopback address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.\nCode: egress_refused\nHTTP Status: 303`,
    );
    expect(result.content).to.have.length(1);
    expect(internal.requests).to.have.length(0);
  });
});
