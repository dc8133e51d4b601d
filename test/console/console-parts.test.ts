import { expect } from 'chai';
import { openMemoryStore } from '../../core/store/memory-store.js';
import { ConsoleAccess } from '../../server/console/access.js';
import { ArgumentValues } from '../../server/console/argument-view.js';
import { html } from '../../server/console/html.js';
import { timeLeft } from '../../server/console/pages/layout.js';
import { SessionStore } from '../../server/console/sessions.js';
import { manualClock } from '../support/enterprise-fixture.js';

describe('approvals console parts', () => {
  describe('argument values shown to approvers', () => {
    const args = JSON.stringify({ path: '/rest/api/3/issue', body: { fields: { summary: 'Rotate the key', labels: ['a', 'b'] }, fieldsExtra: 'x' } });

    it('shows the values of the named paths and everything under them, the type of the rest', () => {
      const lines = new ArgumentValues('path, body.fields').lines(args);
      expect(lines).to.deep.equal([
        { depth: 0, key: 'body', text: 'object', value: false },
        { depth: 1, key: 'fields', text: 'object', value: false },
        { depth: 2, key: 'labels', text: '["a","b"]', value: true },
        { depth: 2, key: 'summary', text: '"Rotate the key"', value: true },
        // A sibling whose name merely starts the same is not under body.fields.
        { depth: 1, key: 'fieldsExtra', text: 'string', value: false },
        { depth: 0, key: 'path', text: '"/rest/api/3/issue"', value: true },
      ]);
    });

    it('shows every value with "*" and none with an empty setting', () => {
      expect((new ArgumentValues('*').lines(args) as Array<{ value: boolean; text: string }>).filter((l) => l.value).map((l) => l.text)).to.deep.equal([
        '["a","b"]',
        '"Rotate the key"',
        '"x"',
        '"/rest/api/3/issue"',
      ]);
      expect((new ArgumentValues('').lines(args) as Array<{ value: boolean }>).some((l) => l.value)).to.equal(false);
    });

    it('says so when the stored preview was cut (not JSON any more)', () => {
      expect(new ArgumentValues('*').lines(`${args.slice(0, 40)}... (9000 characters)`)).to.deep.equal({
        unavailable: 'The arguments are too large to show here; use `mcp-devtools approvals list --json`.',
      });
    });
  });

  describe('who decides', () => {
    const access = ConsoleAccess.fromLists('release-engineers, team-leads', 'developers');
    const olga = { subject: 'olga', groups: ['team-leads'], via: 'oidc' };

    it('lets approvers decide calls of others, never their own, whichever way they signed in', () => {
      expect(access.refusal(olga, { subject: 'alice' })).to.equal(undefined);
      expect(access.refusal(olga, { subject: 'olga' })).to.equal('olga asked for this call, so another approver must decide it.');
      expect(access.refusal({ ...olga, via: 'tokens' }, { subject: 'olga' })).to.equal('olga asked for this call, so another approver must decide it.');
    });

    it('lets viewers read but not decide, and keeps everyone else out', () => {
      const alice = { subject: 'alice', groups: ['developers'], via: 'oidc' };
      expect(access.mayView(alice)).to.equal(true);
      expect(access.refusal(alice, { subject: 'bob' })).to.equal('Only members of release-engineers, team-leads may grant or reject calls; alice is not.');
      expect(access.mayView({ subject: 'carol', groups: ['contractors'], via: 'oidc' })).to.equal(false);
      expect(access.mayView(olga)).to.equal(true);
      expect(ConsoleAccess.fromLists('', '').refusal(olga, { subject: 'alice' })).to.equal('Nobody decides in this console: MCP_APPROVER_GROUPS is empty.');
    });
  });

  describe('sessions', () => {
    it('ends a session at its TTL whatever the store does, and forgets a destroyed one', async () => {
      const clock = manualClock();
      const sessions = new SessionStore(openMemoryStore('console-test', 1000), clock, 60_000);
      const { id, session } = await sessions.create({ subject: 'olga', groups: ['team-leads'], via: 'tokens' }, { kind: 'token', sha256: 'ab'.repeat(32) });
      expect(await sessions.get(id)).to.deep.equal(session);
      // Another id of the same form: 32 random bytes end in one of 16 characters, so 'A' alone is this id 1 time in 16.
      expect(await sessions.get(`${id.slice(0, -1)}${id.endsWith('A') ? 'E' : 'A'}`)).to.equal(undefined);
      clock.advance(60_001);
      expect(await sessions.get(id)).to.equal(undefined);
      const again = await sessions.create({ subject: 'olga', groups: [], via: 'tokens' }, { kind: 'token', sha256: 'ab'.repeat(32) });
      await sessions.destroy(again.id);
      expect(await sessions.get(again.id)).to.equal(undefined);
    });

    it("hands an OIDC sign-in's verifier to its callback once", async () => {
      const sessions = new SessionStore(openMemoryStore('console-test', 1000), manualClock(), 60_000);
      await sessions.saveLogin('state-1', { codeVerifier: 'v', nonce: 'n' });
      expect(await sessions.takeLogin('state-1')).to.deep.equal({ codeVerifier: 'v', nonce: 'n' });
      expect(await sessions.takeLogin('state-1')).to.equal(undefined);
    });
  });

  it('escapes everything it did not write itself', () => {
    const page = html`<p title="${'"><script>'}">${['<b>', html`<i>${"it's"}</i>`]}${null}${false}${0}</p>`;
    expect(page.text).to.equal('<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;<i>it&#39;s</i>0</p>');
  });

  it('tells the time left to decide', () => {
    const now = Date.parse('2026-11-30T09:00:00Z');
    expect(timeLeft('2026-11-30T09:14:05Z', now)).to.equal('14 min 05 s left');
    expect(timeLeft('2026-11-30T11:10:00Z', now)).to.equal('2 h 10 min left');
    expect(timeLeft('2026-11-30T09:00:09Z', now)).to.equal('9 s left');
    expect(timeLeft('2026-11-30T08:59:59Z', now)).to.equal('expired');
  });
});
