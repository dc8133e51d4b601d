// Fences hold on the whole injection corpus (test/support/injection-corpus.ts): issues by outsiders whose titles
// and bodies try to end the fence, read with the built server and the SDK client, in TOON and JSON, whole and
// under jq. Whatever the format, every canary sits between the result's own opening and closing marks.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { outsiderIssue, repository } from '../support/attack-github.js';
import { fenceOf } from '../support/fences.js';
import { canaries, INJECTIONS } from '../support/injection-corpus.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';

const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

/** The text with every fenced span (the result's own marks) cut out: what the model reads as not fenced. */
function outsideFences(text: string, open: string, close: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = text.indexOf(open, at);
    if (start < 0) return out + text.slice(at);
    const end = text.indexOf(close, start + open.length);
    expect(end, `an opening mark at ${start} is never closed`).to.be.greaterThan(start);
    out += text.slice(at, start);
    at = end + close.length;
  }
}

describe('fences against the injection corpus (dist/cli.js, the SDK client over stdio)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  let session: StdioSession;

  before(async () => {
    github = await MockUpstream.start();
    github.on('GET', '/repos/acme/site', { body: repository('acme', 'site', false) });
    // The fields of GitHub's issue that matter here (the whole objects would be cut at the model's text limit).
    const issues = INJECTIONS.map((body, i) => {
      const { number, user, author_association, html_url, comments } = outsiderIssue('acme', 'site', 100 + i, body);
      return {
        number,
        title: `${canaries()[i]} ${body.slice(7, 40)}`,
        body,
        user: { login: (user as { login: string }).login },
        author_association,
        html_url,
        comments,
      };
    });
    github.on('GET', '/repos/acme/site/issues', { body: issues });
    session = await connectStdio({ env: { GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghp_e2eFenceCorpusToken0123456789abc' } });
  });
  after(async () => {
    await session?.close();
    await github?.close();
  });

  const shapes: Array<[string, Record<string, unknown>]> = [
    ['TOON', {}],
    ['JSON', { outputFormat: 'json' }],
    ['TOON under jq', { jq: '[*].{n: number, t: title, b: body}' }],
    ['JSON under jq', { jq: '[*].body', outputFormat: 'json' }],
  ];
  for (const [shape, extra] of shapes) {
    it(`${shape}: all ${INJECTIONS.length} injections stay inside the result's fence`, async () => {
      const result = (await session.client.callTool({
        name: 'github_list_issues',
        arguments: { owner: 'acme', repo: 'site', perPage: 100, ...extra },
      })) as CallToolResult;
      expect(result.isError, textOf(result)).to.equal(undefined);
      const fence = fenceOf(result)!;
      expect(fence.open).to.match(/^<\d{9}>$/);
      const text = textOf(result);
      // The header states the fence in the result itself.
      expect(text).to.contain(`${fence.open}…${fence.close}`);
      const outside = outsideFences(text, fence.open, fence.close);
      for (const canary of canaries()) {
        expect(text, `${canary} is shown`).to.contain(canary);
        expect(outside, `${canary} escaped the fence`).not.to.contain(canary);
      }
      // No text of theirs produced a mark of ours: the marks are exactly those the server set.
      // (The header states each mark once.)
      const opens = text.split(fence.open).length - 2;
      expect(text.split(fence.close).length - 2).to.equal(opens);
      expect(opens).to.equal(shape === 'JSON under jq' ? INJECTIONS.length : 2 * INJECTIONS.length);
    });
  }

  it('draws a new boundary for every call', async () => {
    const call = async (): Promise<string> =>
      fenceOf((await session.client.callTool({ name: 'github_list_issues', arguments: { owner: 'acme', repo: 'site' } })) as CallToolResult)!.open;
    expect(await call()).not.to.equal(await call());
  });
});
