import { expect } from 'chai';
import { UnknownToolError } from '../../core/kernel/kernel.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { fixtureConfig } from '../support/fixture-plugin.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';

describe('kernel call pipeline (in-process, fixture vendor against a loopback mock)', () => {
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    kernel = await startTestKernel({ configFile: fixtureConfig(), env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'fixture-secret-token' } });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  it('renders the upstream body as TOON by default and JSON on request', async () => {
    mock.on('GET', '/items', {
      body: {
        items: [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
      },
    });
    expect(textOf(await kernel.call('fixture_get', { path: '/items' }))).to.equal('items[2]{id,name}:\n  1,a\n  2,b');
    expect(textOf(await kernel.call('fixture_get', { path: '/items', outputFormat: 'json' }))).to.equal(
      JSON.stringify(
        {
          items: [
            { id: 1, name: 'a' },
            { id: 2, name: 'b' },
          ],
        },
        null,
        2,
      ),
    );
    expect(mock.requests[0]?.headers.authorization).to.equal('Bearer fixture-secret-token');
  });

  it('applies the jq projection before rendering', async () => {
    mock.on('GET', '/items', { body: { items: [{ id: 1 }, { id: 2 }] } });
    expect(textOf(await kernel.call('fixture_get', { path: '/items', jq: 'items[*].id' }))).to.equal('[2]: 1,2');
  });

  it('names every bad argument and what was expected, without calling upstream', async () => {
    const result = await kernel.call('fixture_get', { outputFormat: 'xml', extra: 1 });
    expect(result.isError).to.equal(true);
    const text = textOf(result);
    expect(text).to.contain('Invalid arguments for fixture_get');
    expect(text).to.contain('- path: is required');
    expect(text).to.contain('- outputFormat: must be one of "toon", "json" (got "xml")');
    expect(text).to.contain('- extra: is not a known argument');
    expect(mock.requests).to.have.length(0);
  });

  for (const path of ['../admin', '/a/%2e%2e/b', '/a/%252e%252E/b', '//evil.example/x', 'https://evil.example/x', '/a\\b', '/a\r\nHost: x', '/a#frag']) {
    it(`refuses the path ${JSON.stringify(path)} without any request`, async () => {
      const result = await kernel.call('fixture_get', { path });
      expect(result.isError).to.equal(true);
      expect(textOf(result)).to.contain('Code: invalid_path');
      expect(mock.requests).to.have.length(0);
    });
  }

  it('turns a throwing plugin into an error result and keeps serving other calls', async () => {
    const failed = await kernel.call('fixture_fail', {});
    expect(failed.isError).to.equal(true);
    expect(textOf(failed)).to.contain('The fixture plugin failed while running fixture_fail: boom');
    mock.on('GET', '/ok', { body: { ok: true } });
    expect(textOf(await kernel.call('fixture_get', { path: '/ok' }))).to.equal('ok: true');
  });

  it('rejects an unknown tool as a protocol error, not a result', async () => {
    let thrown: unknown;
    try {
      await kernel.call('no_such_tool', {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(UnknownToolError);
  });

  it('reports an upstream error status with the capped body and never the token', async () => {
    mock.on('GET', '/missing', { status: 404, body: { message: 'Not Found', token: 'fixture-secret-token' } });
    const result = await kernel.call('fixture_get', { path: '/missing' });
    expect(result.isError).to.equal(true);
    const text = textOf(result);
    expect(text).to.match(/^Error: Fixture answered 404 Not Found for GET \/missing\./);
    expect(text).to.contain('HTTP Status: 404');
    expect(text).to.contain('Raw API Response:');
    expect(text).not.to.contain('fixture-secret-token');
  });
});
