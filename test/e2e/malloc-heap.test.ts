import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, TYPICAL_JIRA_JQ, jiraSearchBody, serveJiraSearch } from '../bench/jira-bodies.js';
import { minorFaultsOf } from '../bench/process-cpu.js';
import { median } from '../bench/stats.js';
import { connectHttpAs, startHttpServer, type Connected, type HttpServerProcess } from '../support/sdk-client.js';

const glibc =
  process.platform === 'linux' && Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
const PAGE = 4096;

/**
 * A server answering big pages one after another keeps the memory the first one made it take: giving it back and
 * faulting it in again costs a fresh page each 4 KiB, which on a virtual machine was a third of a 5 MiB call.
 */
(glibc ? describe : describe.skip)('memory the server keeps between big calls (glibc)', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let server: HttpServerProcess;
  let connected: Connected;
  const body = jiraSearchBody(5 * 1024 * 1024);

  before(async () => {
    mock = await MockUpstream.start();
    serveJiraSearch(mock, body);
    server = await startHttpServer({ env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url } });
    connected = await connectHttpAs('v2-legacy', server.url);
  });

  after(async () => {
    await connected?.client.close();
    await server?.stop();
    await mock?.close();
  });

  it('does not take fresh pages for each 5 MiB page it projects: a quarter of the body at most, once warm', async () => {
    const args = { path: SEARCH_PATH, queryParams: { maxResults: '50' }, outputFormat: 'json', jq: TYPICAL_JIRA_JQ };
    const call = async (): Promise<void> => {
      const result = (await connected.client.callTool({ name: 'jira_get', arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError, result.content[0]?.text).to.not.equal(true);
      expect(result.content[0]!.text).to.contain('"key"');
    };
    for (let i = 0; i < 4; i++) await call();
    const faults: number[] = [];
    for (let i = 0; i < 5; i++) {
      // As an agent calls: a moment apart, so that the call before has been collected (back to back, the next
      // call's memory is taken while the last one's is still held, and that is a peak, not a reuse).
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = minorFaultsOf(server.process.pid!);
      await call();
      faults.push(minorFaultsOf(server.process.pid!) - before);
    }
    const bodyPages = Math.ceil(body.length / PAGE);
    expect(median(faults), `fresh pages a call (${faults.join(', ')}) against the body's ${bodyPages}`).to.be.below(bodyPages / 4);
  });
});
