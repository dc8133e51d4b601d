import { expect } from 'chai';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { LinkHandoffs } from '../../../plugins/identity/link-handoffs.js';
import { LinkStates } from '../../../plugins/identity/link-states.js';
import { TokenVault } from '../../../plugins/identity/token-vault.js';
import { rejection } from '../../support/async.js';
import type { LoopbackOAuthServer } from '../../support/identity/oauth-server.js';
import { atlassianFlow, atlassianServer } from '../../support/identity/vendor-servers.js';
import { auditedStore, newVaultKey } from '../../support/identity/vault-fixture.js';
import { openTestStore } from '../../support/store-backends.js';

const alice = { principal: 'alice@acme', session: 'console:alice-session' };

describe("The browser callback's hand-over (link-handoffs.ts, AccountLinking.arrive and finishArrival)", () => {
  let server: LoopbackOAuthServer;
  let store: KeyValueStore;
  let now: number;
  let linking: AccountLinking;
  let key: ReturnType<typeof newVaultKey>;

  beforeEach(async () => {
    server = await atlassianServer();
    store = auditedStore(await openTestStore('memory://'));
    key = newVaultKey();
    now = Date.now();
    const clock = { now: () => now };
    const flow = atlassianFlow(server);
    const vault = await TokenVault.open({ store, key, refreshers: { atlassian: flow.refresh } });
    linking = new AccountLinking({ vault, states: new LinkStates(store, key, clock), handoffs: new LinkHandoffs(store, key), redirectFlows: [flow] });
  });
  afterEach(async () => {
    await store.close();
    await server.close();
  });

  it('refuses, at the callback, a state that expired (ten minutes) before anything is handed over', async () => {
    const { url, state } = await linking.start('atlassian', alice);
    const code = (await server.authorize(url, 'alice')).searchParams.get('code')!;
    now += 10 * 60_000 + 1;
    const expired = await rejection(linking.arrive('atlassian', code, state));
    expect(expired.message).to.equal('This Atlassian Cloud link attempt is unknown or has expired; start linking again.');
  });

  it('keeps no code or state in the store in clear, and a handle links once', async () => {
    const { url, state } = await linking.start('atlassian', alice);
    const code = (await server.authorize(url, 'alice')).searchParams.get('code')!;
    const written: string[] = [];
    const set = store.set.bind(store);
    store.set = (namespace, name, value, ttlMs) => {
      written.push(`${namespace} ${name} ${JSON.stringify(value)}`);
      return set(namespace, name, value, ttlMs);
    };
    const handle = await linking.arrive('atlassian', code, state);
    expect(handle).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(written.filter((w) => w.startsWith('identity-link-handoff '))).to.have.length(1);
    for (const secret of [code, state, handle]) expect(written.join('\n')).not.to.include(secret);
    const linked = await linking.finishArrival(handle, alice);
    expect(linked).to.include({ vendor: 'atlassian', login: 'alice@acme.example' });
    expect(await linking.finishArrival(handle, alice)).to.equal(undefined);
  });

  it('opens nothing for a handle under another vault key, or a made-up one', async () => {
    const { url, state } = await linking.start('atlassian', alice);
    const code = (await server.authorize(url, 'alice')).searchParams.get('code')!;
    const handle = await linking.arrive('atlassian', code, state);
    expect(await new LinkHandoffs(store, newVaultKey()).take(handle)).to.equal(undefined);
    expect(await linking.finishArrival('A'.repeat(43), alice)).to.equal(undefined);
    expect(await linking.finishArrival('../x', alice)).to.equal(undefined);
  });
});
