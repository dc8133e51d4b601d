import { expect } from 'chai';
import { ConsoleClient, type Answer } from '../../console/support/console-client.js';
import { METRICS_TOKEN, startBrowserLinking, type BrowserLinking } from '../../support/identity/browser-linking.js';
import { parseExposition, valueOf } from '../../support/prometheus-text.js';

const TOKENS = { alice: 'tok-alice-callback-0c7d1e', mallory: 'tok-mallory-callback-93fa2b' };
const NOTHING = 'nothing was linked';

/** The sentence of a page the callback or the console answered (its alert), tags and entities undone. */
function alertOf(answer: Answer): string {
  const match = /role="(?:alert|status)">([^<]*)</.exec(answer.text);
  if (match === null) throw new Error(`no alert on the page (HTTP ${answer.status}):\n${answer.text.slice(0, 1500)}`);
  return match[1]!
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** The handle the callback page's meta refresh carries to the console. */
function handleOf(answer: Answer): string {
  const match = /content="0;url=\/console\/accounts\/finish\?attempt=([A-Za-z0-9_-]{43})"/.exec(answer.text);
  if (match === null) throw new Error(`not the page that continues to the console (HTTP ${answer.status}):\n${answer.text.slice(0, 1500)}`);
  return match[1]!;
}

describe('The browser callback /identity/callback/<vendor>, finished by the console session that started it (built server over HTTP)', function () {
  this.timeout(60_000);
  let d: BrowserLinking;
  let alice: ConsoleClient;
  let mallory: ConsoleClient;

  /** A browser with no cookie for the server at all: what a vendor's redirect brings to the callback. */
  const arrive = async (path: string): Promise<Answer> => {
    const response = await fetch(`${d.base}${path}`, { redirect: 'manual' });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };

  /** `who` presses Connect in the console and consents at Atlassian as `account`: the callback URL Atlassian sends the browser to. */
  const consent = async (who: ConsoleClient, account: string): Promise<URL> => {
    const started = await who.post('/console/accounts/atlassian/connect', {}, { csrf: await who.csrf() });
    const vendorUrl = /href="([^"]+)">Continue to Atlassian Cloud/.exec(started.text)?.[1]?.replace(/&amp;/g, '&');
    if (vendorUrl === undefined) throw new Error(`no consent link:\n${started.text.slice(0, 1500)}`);
    return d.atlassian.authorize(vendorUrl, account);
  };

  const linkedOf = async (who: ConsoleClient): Promise<string> => (await who.get('/console/accounts')).text;

  before(async () => {
    d = await startBrowserLinking(TOKENS);
    alice = await ConsoleClient.signIn(d.base, TOKENS.alice);
    mallory = await ConsoleClient.signIn(d.base, TOKENS.mallory);
  });
  after(async () => {
    await d?.close();
  });

  it('hands the code over without a session, and only the session that connected finishes the link, once', async () => {
    const back = await consent(alice, 'alice');
    expect(back.origin).to.equal(d.base);
    const landed = await arrive(back.pathname + back.search);
    expect(landed.status).to.equal(200);
    expect(landed.headers.get('cache-control')).to.equal('no-store');
    expect(landed.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(landed.headers.get('content-security-policy')).to.include("default-src 'none'").and.include("frame-ancestors 'none'");
    // The page carries a handle, never what the vendor sent.
    expect(landed.text).not.to.include(back.searchParams.get('code')!).and.not.to.include(back.searchParams.get('state')!);
    const handle = handleOf(landed);

    const finished = await alice.get(`/console/accounts/finish?attempt=${handle}`);
    expect(finished.status).to.equal(200);
    expect(alertOf(finished)).to.equal('Linked Atlassian Cloud as alice@acme.example.');
    expect(await linkedOf(alice)).to.include('<strong>alice@acme.example</strong>');

    const again = await alice.get(`/console/accounts/finish?attempt=${handle}`);
    expect(again.status).to.equal(400);
    expect(alertOf(again)).to.equal(`This link attempt is unknown, has expired or was already used, so ${NOTHING}; connect again.`);
    // The vendor's redirect replayed (browser history, a proxy's log): the attempt is used up.
    const replayed = await arrive(back.pathname + back.search);
    expect(replayed.status).to.equal(400);
    expect(alertOf(replayed)).to.equal(`This Atlassian Cloud link attempt was already used; start linking again if your account is not linked; ${NOTHING}.`);
    await alice.post('/console/accounts/atlassian/disconnect', {}, { csrf: await alice.csrf() });
  });

  it("refuses another person's session and another session of the same person, without spoiling the attempt", async () => {
    const back = await consent(alice, 'alice');
    // Mallory's browser is made to open Alice's way back (or Mallory got hold of it).
    const stolen = await mallory.get(`/console/accounts/finish?attempt=${handleOf(await arrive(back.pathname + back.search))}`);
    expect(stolen.status).to.equal(400);
    expect(alertOf(stolen)).to.equal(
      `This Atlassian Cloud link attempt was started by someone else or in another session; start linking from your own session; ${NOTHING}.`,
    );
    expect(await linkedOf(mallory)).to.include('No linked accounts yet.');
    const aliceElsewhere = await ConsoleClient.signIn(d.base, TOKENS.alice);
    const otherTab = await aliceElsewhere.get(`/console/accounts/finish?attempt=${handleOf(await arrive(back.pathname + back.search))}`);
    expect(alertOf(otherTab)).to.match(/started by someone else or in another session/);

    const own = await alice.get(`/console/accounts/finish?attempt=${handleOf(await arrive(back.pathname + back.search))}`);
    expect(alertOf(own)).to.equal('Linked Atlassian Cloud as alice@acme.example.');
    await alice.post('/console/accounts/atlassian/disconnect', {}, { csrf: await alice.csrf() });
  });

  it("refuses Mallory's own attempt brought to Alice (linking her console to his account)", async () => {
    const back = await consent(mallory, 'mallory');
    const planted = await alice.get(`/console/accounts/finish?attempt=${handleOf(await arrive(back.pathname + back.search))}`);
    expect(alertOf(planted)).to.match(/started by someone else or in another session/);
    expect(await linkedOf(alice)).to.include('No linked accounts yet.');
  });

  it('says an unknown (or expired) state is one, before anything is handed over', async () => {
    const unknown = await arrive(`/identity/callback/atlassian?code=some-code&state=${'A'.repeat(43)}`);
    expect(unknown.status).to.equal(400);
    expect(alertOf(unknown)).to.equal(`This Atlassian Cloud link attempt is unknown or has expired; start linking again; ${NOTHING}.`);
    const malformed = await arrive('/identity/callback/atlassian?code=some-code&state=short');
    expect(alertOf(malformed)).to.equal(alertOf(unknown));
  });

  it('finishes nothing for a browser without the console session, and keeps no way back after signing in', async () => {
    const back = await consent(alice, 'alice');
    const handle = handleOf(await arrive(back.pathname + back.search));
    const stranger = new ConsoleClient(d.base);
    const refused = await stranger.get(`/console/accounts/finish?attempt=${handle}`);
    expect(refused.status).to.equal(403);
    expect(alertOf(refused)).to.equal(
      'You are not signed in to the console in this browser, so nothing was linked. Sign in, then connect again from Connected accounts.',
    );
    expect(refused.headers.getSetCookie().join('\n')).not.to.include(handle);
    expect(await linkedOf(alice)).to.include('No linked accounts yet.');
  });

  it('refuses a forged vendor segment, and a vendor whose state it is not', async () => {
    const back = await consent(alice, 'alice');
    for (const segment of ['evil', 'ATLASSIAN', 'github', 'bitbucket', 'atlassian%2F..%2Fgithub']) {
      const forged = await arrive(`/identity/callback/${segment}${back.search}`);
      expect(forged.status, segment).to.equal(404);
      expect(alertOf(forged)).to.equal(`This address is not the callback of a vendor this server links accounts with, so ${NOTHING}.`);
    }
    expect((await arrive(`/identity/callback${back.search}`)).status).to.equal(404);
    expect(await linkedOf(alice)).to.include('No linked accounts yet.');
  });

  it('says the person declined at the vendor (error=access_denied), and never echoes the error description', async () => {
    const denied = await arrive(
      `/identity/callback/atlassian?error=access_denied&error_description=${encodeURIComponent('<script>alert(1)</script>')}&state=${'B'.repeat(43)}`,
    );
    expect(denied.status).to.equal(400);
    expect(alertOf(denied)).to.equal(`You did not allow access at Atlassian Cloud, so ${NOTHING}. Connect again from Connected accounts when you want to.`);
    expect(denied.text).not.to.include('<script>alert(1)');
    const other = await arrive(`/identity/callback/atlassian?error=${encodeURIComponent('server_error <b>')}`);
    expect(alertOf(other)).to.equal(`Atlassian Cloud did not grant the link, so ${NOTHING}; start linking again from Connected accounts.`);
  });

  it('refuses an oversized or garbage query, and anything but GET, in a sentence', async () => {
    const back = await consent(alice, 'alice');
    const state = back.searchParams.get('state')!;
    const huge = await arrive(`/identity/callback/atlassian?code=${'x'.repeat(5000)}&state=${state}`);
    expect(huge.status).to.equal(414);
    expect(alertOf(huge)).to.equal(`This Atlassian Cloud callback's address is too long to be one Atlassian Cloud sent; ${NOTHING}.`);
    const twoStates = await arrive(`/identity/callback/atlassian?code=c&state=${state}&state=${'C'.repeat(43)}`);
    expect(alertOf(twoStates)).to.equal(
      `This Atlassian Cloud callback does not carry one code and one state, so it is not the end of a link attempt; ${NOTHING}.`,
    );
    expect((await arrive('/identity/callback/atlassian?%zz=%%')).status).to.equal(400);
    const badCode = await arrive(`/identity/callback/atlassian?code=${encodeURIComponent('é\u0000<x>')}&state=${state}`);
    expect(alertOf(badCode)).to.equal(`Atlassian Cloud refused the authorization code of this link attempt; start linking again; ${NOTHING}.`);
    const posted = await fetch(`${d.base}/identity/callback/atlassian${back.search}`, { method: 'POST' });
    expect(posted.status).to.equal(405);
    const garbageHandle = await alice.get(`/console/accounts/finish?attempt=${encodeURIComponent('../../x')}`);
    expect(garbageHandle.status).to.equal(400);
    // The untouched attempt still links (nothing above used it up).
    const own = await alice.get(`/console/accounts/finish?attempt=${handleOf(await arrive(back.pathname + back.search))}`);
    expect(alertOf(own)).to.equal('Linked Atlassian Cloud as alice@acme.example.');
    await alice.post('/console/accounts/atlassian/disconnect', {}, { csrf: await alice.csrf() });
  });

  it('writes no code, state or handle into the server log', async () => {
    const back = await consent(alice, 'alice');
    const handle = handleOf(await arrive(back.pathname + back.search));
    await alice.get(`/console/accounts/finish?attempt=${handle}`);
    const log = d.acting.server.stderr.join('\n');
    expect(log).to.include('route admits requests without a bearer token');
    for (const secret of [back.searchParams.get('code')!, back.searchParams.get('state')!, handle]) expect(log).not.to.include(secret);
  });

  it('counts the callback among the requests answered, under route="/identity"', async () => {
    const scrape = await fetch(`${d.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const samples = parseExposition(await scrape.text());
    expect(valueOf(samples, 'mcp_devtools_http_requests_total', { route: '/identity', status: '200' })).to.be.at.least(5);
    expect(valueOf(samples, 'mcp_devtools_http_requests_total', { route: '/identity', status: '404' })).to.be.at.least(5);
  });
});
