// A console session lasts no longer than what let it in: each request re-checks the session's token against
// the tokens file and its groups, at most MCP_CONSOLE_SESSION_RECHECK_SECONDS old (60 by default, 1 here), so
// removing a token or taking an approver out of the approvers group ends the session within that interval.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { tokensFileYaml } from '../support/auth-fixture.js';
import { ConsoleClient } from './support/console-client.js';
import { ConsoleDeployment, heldApproval, PEOPLE, type Person } from './support/console-deployment.js';

const RECHECK_SECONDS = 1;
const pastTheInterval = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, RECHECK_SECONDS * 1000 + 300));

describe('console sessions after a revocation (built server, bearer tokens, SQLite store)', function () {
  this.timeout(60_000);
  let d: ConsoleDeployment;
  const groups: Record<Person, readonly string[]> = { ...PEOPLE };

  /** Rewrites the tokens file as an operator does: every person still in `groups`, with those groups. */
  const writeTokens = (): void =>
    writeFileSync(
      join(d.dir, 'tokens.yaml'),
      tokensFileYaml((Object.keys(groups) as Person[]).map((p) => ({ token: d.tokens[p], subject: p, groups: groups[p] }))),
    );

  before(async () => {
    d = await ConsoleDeployment.start({ store: 'sqlite', env: { MCP_CONSOLE_SESSION_RECHECK_SECONDS: String(RECHECK_SECONDS) } });
  });
  after(async () => d?.close());

  it('keeps a session whose token and groups are unchanged past the interval', async () => {
    const alice = await ConsoleClient.signIn(d.base, d.tokens.alice);
    await pastTheInterval();
    const page = await alice.get('/console');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<span class="subject">alice</span> <span class="role">viewer</span>');
  });

  it('ends the session of a token removed from the tokens file: the next page sends the browser to sign in', async () => {
    const rene = await ConsoleClient.signIn(d.base, d.tokens.rene);
    const cookie = rene.session!;
    expect((await rene.get('/console')).status).to.equal(200);
    delete (groups as Partial<Record<Person, readonly string[]>>).rene;
    writeTokens();
    await pastTheInterval();
    const answer = await rene.get('/console/activity');
    expect(answer.status).to.equal(303);
    expect(answer.headers.get('location')).to.equal('/console/signin?notice=ended');
    expect(answer.headers.getSetCookie().some((c) => /^mcp_console=; .*Max-Age=0/.test(c))).to.equal(true);
    const signIn = await rene.get('/console/signin?notice=ended');
    expect(signIn.text).to.include('Your sign-in has ended: your token or your groups changed. Sign in again.');
    // The session is gone on the server too: the cookie replayed finds nothing.
    const replayed = await new ConsoleClient(d.base).withCookie('mcp_console', cookie).get('/console');
    expect(replayed.headers.get('location')).to.equal('/console/signin');
  });

  it("ends an approver's session once the approvers group is taken from them: a grant posted after the interval is refused", async () => {
    const olga = await ConsoleClient.signIn(d.base, d.tokens.olga);
    const csrf = await olga.csrf();
    const id = heldApproval(await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/REV-1' }));
    groups.olga = ['developers'];
    writeTokens();
    await pastTheInterval();
    const answer = await olga.post(`/console/approvals/${id}/grant`, {}, { csrf });
    expect(answer.status).to.equal(403);
    expect(answer.text).to.include('nothing was done');
    // Still held: alice's retry is not run.
    expect((await d.call('alice', 'jira_delete', { path: '/rest/api/3/issue/REV-1' }))._meta?.code).to.equal('approval_required');
    // Signed in again, olga is what the file now says: a viewer.
    const again = await ConsoleClient.signIn(d.base, d.tokens.olga);
    expect((await again.get('/console')).text).to.include('<span class="subject">olga</span> <span class="role">viewer</span>');
  });
});
