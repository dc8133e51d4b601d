import { expect } from 'chai';
import { inspect } from 'node:util';
import { LinkError } from '../../../core/identity/link-error.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { open } from '../../../plugins/identity/sealed-box.js';
import { rotateVaultKey } from '../../../plugins/identity/rotate-key.js';
import { TokenVault } from '../../../plugins/identity/token-vault.js';
import { linkKey, sealContext, VAULT_NAMESPACE, type StoredLink } from '../../../plugins/identity/vault-record.js';
import { rejection } from '../../support/async.js';
import { auditedStore, canaryLink, newVaultKey, redisDump, sqliteBytes } from '../../support/identity/vault-fixture.js';
import { uniqueNamespace } from '../../support/redis.js';
import { BACKENDS, openTestStore } from '../../support/store-backends.js';

for (const backend of BACKENDS) {
  describe(`The token vault on the ${backend.kind} store`, () => {
    let url: string;
    let deployment: string;
    const opened: KeyValueStore[] = [];
    /** A store of this deployment; on memory, the one store (each memory store is a world of its own). */
    const store = async (): Promise<KeyValueStore> => {
      if (!backend.shared && opened.length > 0) return opened[0]!;
      const s = auditedStore(await openTestStore(url, { namespace: deployment }));
      opened.push(s);
      return s;
    };
    /** What an operator reading the store's storage sees: the SQLite file's bytes, Redis's keys and values. */
    const rawBytes = async (): Promise<string> => {
      if (backend.kind === 'sqlite') return sqliteBytes(new URL(url).pathname);
      if (backend.kind === 'redis') return redisDump(url, deployment);
      throw new Error('memory has no bytes to read');
    };

    beforeEach(async () => {
      url = await backend.freshUrl();
      deployment = uniqueNamespace('vault');
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('keeps a link sealed and gives its token to another replica opened with the same key', async () => {
      const key = newVaultKey();
      const link = canaryLink('alice');
      const first = await TokenVault.open({ store: await store(), key });
      const summary = await first.save('alice@acme', 'github', link);
      expect(summary).to.include({ vendor: 'github', login: 'alice', accountId: 'id-alice' });
      const second = await TokenVault.open({ store: await store(), key });
      const credential = (await second.credential('alice@acme', 'github'))!;
      expect(credential.accessToken.reveal()).to.equal(link.access);
      expect(credential.identity).to.deep.equal({ kind: 'user', vendor: 'github', login: 'alice', accountId: 'id-alice' });
      expect(await second.credential('bob@acme', 'github')).to.equal(undefined);
      // Whatever shows the credential or the account list shows no token.
      for (const shown of [
        JSON.stringify(credential),
        inspect(credential, { depth: 10 }),
        String(credential.accessToken),
        JSON.stringify(await second.accounts('alice@acme')),
      ]) {
        expect(shown).not.to.include(link.access);
        expect(shown).not.to.include(link.refresh);
      }
    });

    if (backend.kind !== 'memory') {
      it('holds no token in clear in what the store keeps on disk or in Redis (the links are there, readable as links)', async () => {
        const vault = await TokenVault.open({ store: await store(), key: newVaultKey() });
        const links = [canaryLink('alice'), canaryLink('bob')];
        await vault.save('alice@acme', 'github', links[0]!);
        await vault.save('bob@acme', 'atlassian', { ...links[1]!, siteId: 'cloud-1' });
        await vault.credential('alice@acme', 'github');
        const bytes = await rawBytes();
        expect(bytes).to.include('identity-vault').and.to.include('alice'); // the dump reads the vault's records
        for (const link of links) {
          for (const token of [link.access, link.refresh]) {
            expect(bytes).not.to.include(token);
            expect(bytes).not.to.include(Buffer.from(token).toString('base64'));
            expect(bytes).not.to.include(Buffer.from(token).toString('base64url'));
          }
        }
      });
    }

    it('refuses at open, in one sentence, a key that did not seal the records, and changes nothing', async () => {
      const key = newVaultKey();
      const s = await store();
      const vault = await TokenVault.open({ store: s, key });
      await vault.save('alice@acme', 'github', canaryLink('alice'));
      // Redis: every key and value as they are; elsewhere the vault's entries (opening a store writes a probe to SQLite's WAL).
      const snapshot = async () =>
        backend.kind === 'redis'
          ? rawBytes()
          : JSON.stringify([await s.get(VAULT_NAMESPACE, linkKey('alice@acme', 'github')), await s.get(VAULT_NAMESPACE, 'catalogue')]);
      const before = await snapshot();
      const wrong = newVaultKey();
      const error = await rejection(TokenVault.open({ store: await store(), key: wrong }));
      expect(error.name).to.equal('StartupError');
      expect(error.message).to.match(/^The vault key \(key id [0-9a-f]{16}, from MCP_VAULT_KEY or MCP_VAULT_KEY_FILE\) does not open the linked accounts/);
      expect(error.message)
        .to.include(key.id)
        .and.to.include(wrong.id)
        .and.to.match(/nothing was changed\.$/);
      expect(error.message.split(/\.\s/)).to.have.length(1);
      expect(await snapshot()).to.equal(before);
      expect((await vault.credential('alice@acme', 'github'))!.identity.login).to.equal('alice');
    });

    it('rotate-key re-wraps every data key (the sealed tokens are untouched); afterwards only the new key opens them', async () => {
      const [oldKey, newKey] = [newVaultKey(), newVaultKey()];
      const s = await store();
      const vault = await TokenVault.open({ store: s, key: oldKey });
      const links = { alice: canaryLink('alice'), bob: canaryLink('bob'), carol: canaryLink('carol') };
      await vault.save('alice@acme', 'github', links.alice);
      await vault.save('bob@acme', 'github', links.bob);
      await vault.save('carol@acme', 'circleci', links.carol);
      const read = (p: string, v: 'github' | 'circleci') => s.get<StoredLink>(VAULT_NAMESPACE, linkKey(p, v));
      const before = { alice: (await read('alice@acme', 'github'))!, carol: (await read('carol@acme', 'circleci'))! };

      expect(await rotateVaultKey(s, oldKey, newKey)).to.deep.equal({ rewrapped: 3, alreadyMoved: 0, gone: 0, unreadable: 0 });

      const after = (await read('alice@acme', 'github'))!;
      expect(after.sealed.kid).to.equal(newKey.id);
      expect(after.sealed.secrets).to.equal(before.alice.sealed.secrets);
      expect(after.sealed.dataKey).not.to.equal(before.alice.sealed.dataKey);
      expect(open(after.sealed, oldKey, sealContext('alice@acme', 'github'))).to.equal(undefined);
      expect(open({ ...after.sealed, kid: oldKey.id }, oldKey, sealContext('alice@acme', 'github'))).to.equal(undefined);
      expect(await rejection(TokenVault.open({ store: await store(), key: oldKey }))).to.have.property('name', 'StartupError');
      const reopened = await TokenVault.open({ store: await store(), key: newKey });
      expect((await reopened.credential('alice@acme', 'github'))!.accessToken.reveal()).to.equal(links.alice.access);
      expect((await reopened.credential('bob@acme', 'github'))!.accessToken.reveal()).to.equal(links.bob.access);
      expect((await reopened.credential('carol@acme', 'circleci'))!.accessToken.reveal()).to.equal(links.carol.access);
      expect((await read('carol@acme', 'circleci'))!.sealed.secrets).to.equal(before.carol.sealed.secrets);
      // A replica still running with the old key is told what to do, in a sentence, and gets no token.
      const error = await rejection(vault.credential('alice@acme', 'github'));
      expect(error).to.be.instanceOf(LinkError).and.to.have.property('problem', 'sealed_with_other_key');
    });
  });
}

describe('The token vault, whatever the store', () => {
  let store: KeyValueStore;
  beforeEach(async () => {
    store = auditedStore(await openTestStore('memory://'));
  });
  afterEach(() => store.close());

  it('finishes a rotation that stopped part way when run again, and refuses to start with either key meanwhile', async () => {
    const [oldKey, newKey] = [newVaultKey(), newVaultKey()];
    const vault = await TokenVault.open({ store, key: oldKey });
    for (const who of ['alice', 'bob', 'carol']) await vault.save(`${who}@acme`, 'github', canaryLink(who));
    // The store fails on the second record's swap: the rotation stops there.
    const replaceIf = store.replaceIf.bind(store);
    let swaps = 0;
    store.replaceIf = async (namespace, key, expected, next, ttl) => {
      if (key.startsWith('link:') && ++swaps === 2) throw new Error('store went away');
      return replaceIf(namespace, key, expected, next, ttl);
    };
    expect((await rejection(rotateVaultKey(store, oldKey, newKey))).message).to.equal('store went away');
    store.replaceIf = replaceIf;
    for (const key of [oldKey, newKey]) {
      const error = await rejection(TokenVault.open({ store, key }));
      expect(error.message).to.match(/^A rotation of the vault key .* did not finish: run mcp-devtools accounts rotate-key with the same two keys again/);
    }
    expect(await rotateVaultKey(store, oldKey, newKey)).to.deep.equal({ rewrapped: 2, alreadyMoved: 1, gone: 0, unreadable: 0 });
    const reopened = await TokenVault.open({ store, key: newKey });
    expect((await reopened.credential('bob@acme', 'github'))!.identity.login).to.equal('bob');
  });

  it('refuses to rotate from a key that is not the one sealing the records, changing nothing', async () => {
    const key = newVaultKey();
    const vault = await TokenVault.open({ store, key });
    await vault.save('alice@acme', 'github', canaryLink('alice'));
    const error = await rejection(rotateVaultKey(store, newVaultKey(), newVaultKey()));
    expect(error.message).to.match(/^The old vault key given \(key id [0-9a-f]{16}\) is not the one that seals the linked accounts/);
    expect((await vault.credential('alice@acme', 'github'))!.identity.login).to.equal('alice');
  });

  it("does not open a record moved under another principal's key (bob cannot act as alice)", async () => {
    const vault = await TokenVault.open({ store, key: newVaultKey() });
    await vault.save('alice@acme', 'github', canaryLink('alice'));
    const alice = (await store.get<StoredLink>(VAULT_NAMESPACE, linkKey('alice@acme', 'github')))!;
    await store.set(VAULT_NAMESPACE, linkKey('bob@acme', 'github'), alice, 60_000);
    await store.set(VAULT_NAMESPACE, linkKey('carol@acme', 'github'), { ...alice, principal: 'carol@acme' }, 60_000);
    for (const who of ['bob@acme', 'carol@acme']) {
      const error = await rejection(vault.credential(who, 'github'));
      expect(error).to.be.instanceOf(LinkError).and.to.have.property('problem', 'unreadable');
      expect(error.message).to.equal("Your linked GitHub account's record was changed or damaged in the store and cannot be used; link your account again.");
    }
  });

  it('a replica left with the old key after a rotation fails at once on a token due for renewal, holding no lease', async () => {
    const [oldKey, newKey] = [newVaultKey(), newVaultKey()];
    let asked = 0;
    const refresher = async () => {
      asked++;
      throw new Error('the vendor must not be asked');
    };
    const stale = await TokenVault.open({ store, key: oldKey, refreshers: { github: refresher } });
    await stale.save('alice@acme', 'github', { ...canaryLink('alice'), expiresAt: Date.now() + 1000 });
    await rotateVaultKey(store, oldKey, newKey);
    expect(await rejection(stale.credential('alice@acme', 'github'))).to.have.property('problem', 'sealed_with_other_key');
    expect((await store.get<StoredLink>(VAULT_NAMESPACE, linkKey('alice@acme', 'github')))!.lease).to.equal(null);
    expect(asked).to.equal(0);
  });

  it('does not open a record whose sealed bytes were changed in the store', async () => {
    const vault = await TokenVault.open({ store, key: newVaultKey() });
    await vault.save('alice@acme', 'github', canaryLink('alice'));
    const record = (await store.get<StoredLink>(VAULT_NAMESPACE, linkKey('alice@acme', 'github')))!;
    const bytes = Buffer.from(record.sealed.secrets, 'base64url');
    bytes[bytes.length - 1] ^= 1;
    await store.set(
      VAULT_NAMESPACE,
      linkKey('alice@acme', 'github'),
      { ...record, sealed: { ...record.sealed, secrets: bytes.toString('base64url') } },
      60_000,
    );
    expect(await rejection(vault.credential('alice@acme', 'github'))).to.have.property('problem', 'unreadable');
  });

  it('tells the person to link again when a token without a refresh token has expired, or the vendor refused the link', async () => {
    let now = 1_000_000;
    const vault = await TokenVault.open({ store, key: newVaultKey(), clock: { now: () => now } });
    const link = canaryLink('alice');
    await vault.save('alice@acme', 'github', { ...link, tokens: { accessToken: link.tokens.accessToken }, expiresAt: now + 3_600_000 });
    expect((await vault.credential('alice@acme', 'github'))!.expiresAt).to.equal(now + 3_600_000);
    now += 3_600_001;
    const expired = await rejection(vault.credential('alice@acme', 'github'));
    expect(expired.message).to.equal("Your linked GitHub account's token has expired and cannot be renewed; link your account again.");

    await vault.save('bob@acme', 'circleci', canaryLink('bob'));
    await vault.markStale('bob@acme', 'circleci', 'CircleCI answered 401');
    const stale = await rejection(vault.credential('bob@acme', 'circleci'));
    expect(stale).to.be.instanceOf(LinkError).and.to.have.property('problem', 'link_stale');
    expect(stale.message).to.equal('CircleCI no longer accepts your linked account; link your account again.');
    expect((await vault.accounts('bob@acme'))[0]!.stale).to.deep.include({ reason: 'CircleCI answered 401' });
  });

  it('disconnecting gives the tokens back once (to revoke them) and forgets the link', async () => {
    const vault = await TokenVault.open({ store, key: newVaultKey() });
    const link = canaryLink('alice');
    await vault.save('alice@acme', 'github', link);
    const [first, second] = await Promise.all([vault.remove('alice@acme', 'github'), vault.remove('alice@acme', 'github')]);
    expect([first, second].filter((t) => t !== undefined)).to.have.length(1);
    expect((first ?? second)!.refreshToken!.reveal()).to.equal(link.refresh);
    expect(await vault.credential('alice@acme', 'github')).to.equal(undefined);
    expect(await vault.accounts('alice@acme')).to.deep.equal([]);
  });
});
