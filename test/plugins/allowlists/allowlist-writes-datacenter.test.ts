import { expect } from 'chai';
import { jsonReply, payload } from '../../fixtures/atlassian/corpus-kit.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

/**
 * Confluence Data Center writes by page id under MCP_ALLOW_CONFLUENCE_SPACES: the page's space is read first
 * (`GET /rest/api/content/{id}?expand=space`), and a page of a space off the list is never written to. Confluence
 * as a loopback mock under a context path, the page in Data Center's documented shape (space OPS).
 */
describe('Allowlists on Confluence Data Center: a write by page id is decided by the page space, read first', () => {
  const PAT = 'MzQ1Njc4OTAxMjM0NTY3-allowlist-dc-pat';
  const t = useVendorKernel({
    plugins: ['confluence'],
    env: (url) => ({
      CONFLUENCE_BASE_URL: `${url}/confluence`,
      CONFLUENCE_API_PREFIXES: '/rest/',
      CONFLUENCE_PERSONAL_TOKEN: PAT,
      MCP_FENCE: 'false',
      MCP_ALLOW_CONFLUENCE_SPACES: 'ENG',
    }),
  });

  it('conf_add_comment (POST /rest/api/content with container.id) and conf_update_page on a page of OPS: refused, nothing written', async () => {
    t.mock.on('GET', '/confluence/rest/api/content/2097154', jsonReply(payload('confluence/dc-content-page.json')));
    t.mock.on('POST', '/confluence/rest/api/content', jsonReply('{"id":"3000001","type":"comment"}'));
    t.mock.on('PUT', '/confluence/rest/api/content/2097154', jsonReply(payload('confluence/dc-content-page.json')));
    const comment = await t.kernel.call('conf_add_comment', { pageId: '2097154', body: 'Done.' });
    expect(comment.isError, textOf(comment)).to.equal(true);
    expect(textOf(comment)).to.contain('content 2097154 of the Confluence space OPS').and.to.contain('nothing was sent');
    const update = await t.kernel.call('conf_update_page', { pageId: '2097154', version: 3, title: 'On-call handbook', body: 'Overwritten' });
    expect(update.isError, textOf(update)).to.equal(true);
    expect(textOf(update)).to.contain('Confluence space OPS');
    expect(t.mock.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /confluence/rest/api/content/2097154']);
    expect(t.mock.requests[0]!.query.get('expand')).to.equal('space');
  });
});
