import { createClient } from '@keyv/redis';
import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { StoreError, type KeyValueStore } from '../../../core/store/key-value-store.js';
import { openStore } from '../../../core/store/open-store.js';
import { sharedRedisUrl, startRedisServer, uniqueNamespace, type RedisServer } from '../../support/redis.js';
import { openTestStore } from '../../support/store-backends.js';
import { inProcessWithEnv } from '../../support/store-process.js';
import { makeTlsFiles, opensslAvailable } from '../../support/tls-files.js';
import { rejection, sleep } from '../../support/async.js';

/** Records what would crash a server: rejections nobody handled, exceptions nobody caught. */
function watchProcess(): { problems: unknown[]; stop(): void } {
  const problems: unknown[] = [];
  const record = (problem: unknown) => problems.push(problem);
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  return {
    problems,
    stop: () => {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    },
  };
}

describe('Redis store (redis://host:port/db)', () => {
  it('keeps keys under MCP_STORE_NAMESPACE in the database the URL names', async () => {
    const base = new URL(await sharedRedisUrl());
    base.pathname = '/5';
    const deployment = uniqueNamespace();
    const store = await openStore(base.href, { namespace: deployment });
    const raw = createClient({ url: base.href });
    await raw.connect();
    try {
      await store.set('cache', 'GET /user', { login: 'octocat' }, 60_000);
      const key = `${deployment}::cache:GET /user`;
      expect(JSON.parse((await raw.get(key))!)).to.deep.include({ value: { login: 'octocat' } });
      expect(await raw.pTTL(key)).to.be.within(1, 60_000);
      await raw.select(0);
      expect(await raw.exists(key)).to.equal(0);
    } finally {
      raw.destroy();
      await store.close();
    }
  });

  describe('when Redis fails after start-up', () => {
    let redis: RedisServer;
    let store: KeyValueStore;

    beforeEach(async () => {
      redis = await startRedisServer();
      store = await openTestStore(redis.url, { timeoutMs: 500 });
      await store.set('cache', 'before', 'kept', 60_000);
    });
    afterEach(async () => {
      redis.resume();
      await store.close();
      await redis.stop();
    });

    it('fails every operation of a dead Redis with a StoreError at once, never crashes, and recovers when it is back', async () => {
      const watch = watchProcess();
      try {
        await redis.kill();
        await sleep(100);
        for (const attempt of [store.get('cache', 'before'), store.set('cache', 'k', 'v', 60_000), store.delete('cache', 'before')]) {
          const error = await rejection(attempt);
          expect(error).to.be.instanceOf(StoreError);
          expect(error.message).to.match(/^The redis store failed a (read|write|delete) in namespace cache: /);
        }
        await redis.restart();
        let written = false;
        for (let tries = 0; tries < 50 && !written; tries++) {
          written = await store.set('cache', 'after', 'back', 60_000).then(
            () => true,
            () => false,
          );
          if (!written) await sleep(200);
        }
        expect(written, 'the store reconnected to the restarted Redis').to.equal(true);
        expect(await store.get('cache', 'after')).to.equal('back');
        expect(watch.problems).to.deep.equal([]);
      } finally {
        watch.stop();
      }
    });

    it('fails operations on a hung Redis with a StoreError after MCP_STORE_TIMEOUT_MS, and answers again once it resumes', async () => {
      const watch = watchProcess();
      try {
        redis.pause();
        const error = await rejection(store.get('cache', 'before'));
        expect(error).to.be.instanceOf(StoreError);
        expect(error.message).to.equal('The redis store did not answer a read in namespace cache within 500 ms (MCP_STORE_TIMEOUT_MS).');
        redis.resume();
        expect(await store.get('cache', 'before')).to.equal('kept');
        expect(watch.problems).to.deep.equal([]);
      } finally {
        watch.stop();
      }
    });

    it('closes without waiting for a Redis that died', async () => {
      await redis.kill();
      await store.close();
      const error = await rejection(store.get('cache', 'before'));
      expect(error.message).to.contain('The redis store is closed');
    });
  });

  describe('at start-up', () => {
    it('fails at once, naming MCP_STORE_URL, when nothing listens at the address', async () => {
      const redis = await startRedisServer();
      await redis.kill();
      const error = await rejection(openStore(redis.url));
      expect(error).to.be.instanceOf(StartupError);
      expect(error.message).to.equal(
        `MCP_STORE_URL=${redis.url}: cannot connect to Redis: connect ECONNREFUSED 127.0.0.1:${redis.port}. Check that Redis runs at that address and that the password and database are right.`,
      );
    });

    it('gives up on a Redis that accepts but does not answer within MCP_STORE_TIMEOUT_MS', async () => {
      const redis = await startRedisServer();
      redis.pause();
      try {
        const error = await rejection(openStore(redis.url, { timeoutMs: 300 }));
        expect(error).to.be.instanceOf(StartupError);
        expect(error.message).to.contain(`MCP_STORE_URL=${redis.url}: cannot connect to Redis: no answer within 300 ms (MCP_STORE_TIMEOUT_MS)`);
      } finally {
        redis.resume();
        await redis.stop();
      }
    });

    it('connects over TLS (rediss://) when the process trusts the CA, and names the certificate problem when not', async function () {
      if (!opensslAvailable()) this.skip(); // the throwaway certificates are made with openssl
      const tls = makeTlsFiles();
      const redis = await startRedisServer({ tls });
      try {
        expect(redis.url).to.match(/^rediss:/);
        const deployment = uniqueNamespace();
        const trusted = { NODE_EXTRA_CA_CERTS: tls.caFile };
        expect(await inProcessWithEnv(trusted, redis.url, deployment, 'set', 'cache', 'k', '"over tls"', '60000')).to.equal(true);
        expect(await inProcessWithEnv(trusted, redis.url, deployment, 'get', 'cache', 'k')).to.equal('over tls');
        const untrusted = await rejection(openStore(redis.url));
        expect(untrusted.message).to.contain(`MCP_STORE_URL=${redis.url}: cannot connect to Redis: `);
        expect(untrusted.message).to.match(/unable to verify the first certificate|self-signed certificate/);
      } finally {
        await redis.stop();
      }
    });

    it('sends the password in the URL to Redis and never shows it in an error', async () => {
      const password = 'hunter2-s3cret/pass';
      const redis = await startRedisServer({ password });
      try {
        const store = await openTestStore(redis.url);
        await store.set('cache', 'k', 'v', 60_000);
        expect(await store.get('cache', 'k')).to.equal('v');
        await store.close();

        const wrong = redis.url.replace(encodeURIComponent(password), 'not-the-password');
        const error = await rejection(openStore(wrong));
        expect(error).to.be.instanceOf(StartupError);
        expect(error.message).to.contain(`MCP_STORE_URL=redis://:***@127.0.0.1:${redis.port}/0: cannot connect to Redis`);
        expect(error.message).to.match(/WRONGPASS|invalid password|invalid username-password/i);
        expect(error.message).not.to.contain('not-the-password');
        const missing = await rejection(openStore(`redis://127.0.0.1:${redis.port}/0`));
        expect(missing.message).to.match(/NOAUTH|Authentication required/i);
      } finally {
        await redis.stop();
      }
    });
  });
});
