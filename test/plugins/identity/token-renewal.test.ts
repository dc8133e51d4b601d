import { expect } from 'chai';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { LinkStates } from '../../../plugins/identity/link-states.js';
import { TokenVault } from '../../../plugins/identity/token-vault.js';
import { sleep } from '../../support/async.js';
import type { LoopbackOAuthServer } from '../../support/identity/oauth-server.js';
import { atlassianFlow, atlassianServer } from '../../support/identity/vendor-servers.js';
import { auditedStore, newVaultKey, redisDump } from '../../support/identity/vault-fixture.js';
import { sharedRedisUrl, uniqueNamespace } from '../../support/redis.js';
import { openTestStore } from '../../support/store-backends.js';

const alice = { principal: 'alice@acme', session: 'console-session-alice' };
/** Access tokens live 3 s at the server (whose expiry is counted in whole seconds, so up to 1 s less in fact). */
const TOKEN_SECONDS = 3;
const RENEW_BEFORE_MS = 1200;
const READS_PER_WAVE = 50;
const RUN_MS = 7000;

describe('Renewing a linked token from two replicas on one Redis', function () {
  this.timeout(60_000);
  let server: LoopbackOAuthServer;
  const stores: KeyValueStore[] = [];

  before(async () => {
    server = await atlassianServer(TOKEN_SECONDS);
  });
  after(async () => {
    for (const s of stores.splice(0)) await s.close();
    await server.close();
  });

  it('spends each rotating refresh token exactly once while 50 concurrent reads across both keep getting valid tokens', async () => {
    const [url, deployment, key] = [await sharedRedisUrl(), uniqueNamespace('renewal'), newVaultKey()];
    const flow = atlassianFlow(server);
    const replica = async () => {
      const store = auditedStore(await openTestStore(url, { namespace: deployment }));
      stores.push(store);
      return TokenVault.open({ store, key, refreshers: { atlassian: flow.refresh }, renewBeforeMs: RENEW_BEFORE_MS, leaseMs: 10_000 });
    };
    const replicas = [await replica(), await replica()];
    const linking = new AccountLinking({ vault: replicas[0]!, states: new LinkStates(stores[0]!, key), redirectFlows: [flow] });
    const { url: authorizeUrl, state } = await linking.start('atlassian', alice);
    const code = (await server.authorize(authorizeUrl, 'alice')).searchParams.get('code')!;
    await linking.callback('atlassian', code, state, alice);

    const problems: string[] = [];
    const reads = [0, 0];
    const started = Date.now();
    while (Date.now() - started < RUN_MS) {
      await Promise.all(
        Array.from({ length: READS_PER_WAVE }, async (_, i) => {
          const side = i % 2;
          try {
            const credential = await replicas[side]!.credential('alice@acme', 'atlassian');
            reads[side]!++;
            if (credential === undefined) problems.push('no credential');
            else if (!(await server.accepts(credential.accessToken.reveal()))) problems.push(`replica ${side} was handed a token the server no longer accepts`);
          } catch (error) {
            problems.push(`replica ${side}: ${(error as Error).message}`);
          }
        }),
      );
      await sleep(100);
    }

    expect(problems).to.deep.equal([]);
    expect(reads[0]).to.be.above(500);
    expect(reads[1]).to.be.above(500);
    const uses = server.refreshUses;
    expect(uses.length, 'the token was renewed as it expired').to.be.at.least(2);
    expect(uses.every((u) => u.status === 200)).to.equal(true);
    expect(new Set(uses.map((u) => u.token)).size, 'no refresh token was presented twice').to.equal(uses.length);
    // Redis holds the link, and none of the tokens the server issued, in any key or value.
    const dump = await redisDump(url, deployment);
    expect(dump).to.include('identity-vault:link:atlassian:alice%40acme');
    expect(server.issued.length).to.equal(2 * (uses.length + 1));
    for (const token of server.issued) expect(dump).not.to.include(token);
  });
});
