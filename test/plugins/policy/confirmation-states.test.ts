import { expect } from 'chai';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { openStore } from '../../../core/store/open-store.js';
import { ConfirmationStates, type ConfirmationSubject } from '../../../plugins/policy/confirmation-states.js';
import { manualClock } from '../../support/enterprise-fixture.js';
import { sharedRedisUrl, uniqueNamespace } from '../../support/redis.js';

// The requestState of a confirm rule's question (2026-07-28), each check on its own: the transport tests
// (confirm-input-required.test.ts) see only that a bad state is asked again; here, why, and that two replicas
// sharing one Redis agree on the key and on single use.
const alice: ConfirmationSubject = {
  principal: { subject: 'alice', groups: [], via: 'tokens' },
  tool: 'github_create_pull_request',
  args: { owner: 'acme', repo: 'site', title: 'Add notes', head: 'leak', base: 'main' },
  ruleId: 'untrusted-and-private-to-public',
  policyVersion: 'v1-abc',
};

/** The state with one character of part `part` (0 version, 1 body, 2 mac) changed. */
function changed(state: string, part: 1 | 2): string {
  const parts = state.split('.');
  const text = parts[part]!;
  parts[part] = `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`;
  return parts.join('.');
}

describe('confirmation states: signed, bound, expiring, single use, shared by replicas', function () {
  this.timeout(20_000);
  const stores: KeyValueStore[] = [];
  after(async () => {
    await Promise.allSettled(stores.map((s) => s.close()));
  });
  const memory = async (): Promise<KeyValueStore> => {
    const store = await openStore('memory://');
    stores.push(store);
    return store;
  };

  it('takes a state once, for exactly the subject it was minted for; the state names no one and no argument', async () => {
    const states = new ConfirmationStates(await memory(), manualClock(), 60_000);
    const state = await states.mint(alice);
    const decoded = Buffer.from(state.split('.')[1]!, 'base64url').toString('utf8');
    for (const clear of ['alice', 'github_create_pull_request', 'acme', 'Add notes', 'untrusted']) expect(decoded).to.not.contain(clear);
    expect(await states.redeem(state, alice)).to.equal('valid');
    expect(await states.redeem(state, alice)).to.equal('used');
  });

  it('refuses a state minted for another caller, tool, arguments, rule or policy version, without using it up', async () => {
    const states = new ConfirmationStates(await memory(), manualClock(), 60_000);
    const state = await states.mint(alice);
    const others: ConfirmationSubject[] = [
      { ...alice, principal: { ...alice.principal, subject: 'bob' } },
      { ...alice, principal: { ...alice.principal, via: 'oidc' } },
      { ...alice, tool: 'github_add_comment' },
      { ...alice, args: { ...alice.args, base: 'release' } },
      { ...alice, ruleId: 'another-rule' },
      { ...alice, policyVersion: 'v2-def' },
    ];
    for (const other of others) expect(await states.redeem(state, other), JSON.stringify(other)).to.equal('mismatched');
    // How the answer is shown (jq, outputFormat) is not what is done: the same call.
    expect(await states.redeem(state, { ...alice, args: { ...alice.args, jq: 'number', outputFormat: 'json' } })).to.equal('valid');
  });

  it('refuses a forged state: a changed body or signature, a made-up one, another version, none at all', async () => {
    const states = new ConfirmationStates(await memory(), manualClock(), 60_000);
    const state = await states.mint(alice);
    expect(await states.redeem(changed(state, 1), alice)).to.equal('forged');
    expect(await states.redeem(changed(state, 2), alice)).to.equal('forged');
    expect(await states.redeem(`c2${state.slice(2)}`, alice)).to.equal('forged');
    expect(await states.redeem(`${state}.extra`, alice)).to.equal('forged');
    expect(await states.redeem('c1.e30.AAAA', alice)).to.equal('forged');
    expect(await states.redeem(undefined, alice)).to.equal('missing');
    // None of these used it up.
    expect(await states.redeem(state, alice)).to.equal('valid');
  });

  it('refuses a state past its time, even while its nonce is still recorded', async () => {
    const clock = manualClock();
    const states = new ConfirmationStates(await memory(), clock, 60_000);
    const state = await states.mint(alice);
    clock.advance(60_000);
    expect(await states.redeem(state, alice)).to.equal('expired');
  });

  it('a state signed by another server (another key) is forged here', async () => {
    const state = await new ConfirmationStates(await memory(), manualClock(), 60_000).mint(alice);
    expect(await new ConfirmationStates(await memory(), manualClock(), 60_000).redeem(state, alice)).to.equal('forged');
  });

  describe('two replicas on one Redis', () => {
    let a: ConfirmationStates;
    let b: ConfirmationStates;
    before(async () => {
      const url = await sharedRedisUrl();
      const namespace = uniqueNamespace('confirm');
      const [one, two] = [await openStore(url, { namespace, timeoutMs: 5000 }), await openStore(url, { namespace, timeoutMs: 5000 })];
      stores.push(one, two);
      a = new ConfirmationStates(one, manualClock(), 60_000);
      b = new ConfirmationStates(two, manualClock(), 60_000);
    });

    it('a state minted on one replica is taken on the other, once', async () => {
      const state = await a.mint(alice);
      expect(await b.redeem(state, alice)).to.equal('valid');
      expect(await a.redeem(state, alice)).to.equal('used');
    });

    it('of two retries with one state on both replicas at once, exactly one counts', async () => {
      const state = await a.mint(alice);
      const answers = await Promise.all([a.redeem(state, alice), b.redeem(state, alice), a.redeem(state, alice), b.redeem(state, alice)]);
      expect(answers.filter((x) => x === 'valid')).to.have.length(1);
      expect(answers.filter((x) => x === 'used')).to.have.length(3);
    });
  });
});
