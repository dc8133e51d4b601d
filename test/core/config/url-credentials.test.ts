import { expect } from 'chai';
import { redactUrl, urlPasswords } from '../../../core/text/url-credentials.js';
import { startRedisServer } from '../../support/redis.js';
import { startTestKernel } from '../../support/test-kernel.js';

describe('Passwords inside URL settings', () => {
  const cases: Array<[string, string]> = [
    ['redis://:secret@127.0.0.1:6379/0', 'redis://:***@127.0.0.1:6379/0'],
    ['rediss://app:s%40cret@cache.internal:6380/2', 'rediss://app:***@cache.internal:6380/2'],
    ['redis://app@cache.internal:6379', 'redis://app@cache.internal:6379'],
    ['redis://127.0.0.1:6379/0', 'redis://127.0.0.1:6379/0'],
    ['sqlite:///var/lib/mcp/store.db', 'sqlite:///var/lib/mcp/store.db'],
    ['https://example.com/a@b', 'https://example.com/a@b'],
    ['not a url', 'not a url'],
  ];
  for (const [url, shown] of cases) {
    it(`shows ${url} as ${shown}`, () => {
      expect(redactUrl(url)).to.equal(shown);
    });
  }

  it('finds the password as written and decoded, for scrubbing', () => {
    expect(urlPasswords('rediss://app:s%40cret@host:6380/2')).to.deep.equal(['s%40cret', 's@cret']);
    expect(urlPasswords('redis://app@host')).to.deep.equal([]);
    expect(urlPasswords(42)).to.deep.equal([]);
  });

  it('scrubs the store password from every log line, whatever key it appears under', async () => {
    const password = 'store-pass-4242';
    const redis = await startRedisServer({ password });
    try {
      const kernel = await startTestKernel({ env: { MCP_STORE_URL: redis.url, LOG_LEVEL: 'info' } });
      kernel.logger.warn({ note: `connecting to ${redis.url}`, nested: { raw: password } }, 'a line a careless plugin might write');
      await kernel.close();
      const text = kernel.logs.join('\n');
      expect(text).to.contain('a line a careless plugin might write');
      expect(text).not.to.contain(password);
    } finally {
      await redis.stop();
    }
  });
});
