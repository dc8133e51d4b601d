import { expect } from 'chai';
import { openMemoryStore } from '../../core/store/memory-store.js';
import { ApproverAccess } from '../../plugins/policy/console/approver-access.js';
import { ConsoleAccess } from '../../server/console/access.js';
import { argumentRows, FOLD_CHARS } from '../../plugins/policy/console/argument-view.js';
import { html } from '../../core/text/html.js';
import { timeLeft } from '../../plugins/policy/console/pages/page-parts.js';
import { SessionStore } from '../../server/console/sessions.js';
import { manualClock } from '../support/enterprise-fixture.js';

describe('approvals console parts', () => {
  describe('argument values shown to approvers', () => {
    it('shows each argument with its value as the call sends it, an object as JSON (the branch a pipeline builds)', () => {
      const rows = argumentRows(JSON.stringify({ path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } }));
      expect(rows).to.deep.equal([
        { key: 'path', text: '"/api/v2/project/gh/acme/app/pipeline"', redacted: false },
        { key: 'body', text: '{"branch":"main"}', redacted: false },
      ]);
    });

    it('folds a long value: its start, with the whole of it pretty-printed behind "show all"', () => {
      const body = { fields: { summary: 'Rotate the key', description: 'd'.repeat(300) } };
      const [row] = argumentRows(JSON.stringify({ body })) as Array<{ text: string; full?: string }>;
      expect(row!.text).to.equal(`${JSON.stringify(body).slice(0, FOLD_CHARS)}...`);
      expect(row!.full).to.equal(JSON.stringify(body, null, 2));
    });

    it('marks a value the approvals store redacted, and says so when a stored preview is not JSON', () => {
      expect(argumentRows('{"token":"[REDACTED]"}')).to.deep.equal([{ key: 'token', text: 'redacted', redacted: true }]);
      expect(argumentRows('{"path":"/rest/api/3/issue"... (9000 characters)')).to.deep.equal({
        unavailable: 'The arguments are too large to show here; use `mcp-devtools approvals show ID`.',
      });
    });
  });

  describe('who decides', () => {
    // The policy plugin's rule of who decides, and the console's of who reads: approvers (their role), and viewers.
    const access = ApproverAccess.fromList('release-engineers, team-leads');
    const console = new ConsoleAccess('developers', [(person) => access.roleOf(person)]);
    const olga = { subject: 'olga', groups: ['team-leads'], via: 'oidc' };

    it('lets approvers decide calls of others, never their own, whichever way they signed in', () => {
      expect(access.refusal(olga, { subject: 'alice' })).to.equal(undefined);
      expect(access.refusal(olga, { subject: 'olga' })).to.equal('olga asked for this call, so another approver must decide it.');
      expect(access.refusal({ ...olga, via: 'tokens' }, { subject: 'olga' })).to.equal('olga asked for this call, so another approver must decide it.');
    });

    it('lets viewers read but not decide, and keeps everyone else out', () => {
      const alice = { subject: 'alice', groups: ['developers'], via: 'oidc' };
      expect(console.mayView(alice)).to.equal(true);
      expect(access.refusal(alice, { subject: 'bob' })).to.equal('Only members of release-engineers, team-leads may grant or reject calls; alice is not.');
      expect(console.mayView({ subject: 'carol', groups: ['contractors'], via: 'oidc' })).to.equal(false);
      expect(console.mayView(olga)).to.equal(true);
      expect(ApproverAccess.fromList('').refusal(olga, { subject: 'alice' })).to.equal('Nobody may grant or reject calls: MCP_APPROVER_GROUPS is empty.');
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
