import { expect } from 'chai';
import { CodeFlowIssuer, CONSOLE_CLIENT } from '../support/code-flow-issuer.js';
import { simultaneousGets, type RawAnswer } from '../support/grant-races.js';
import { sharedRedisUrl, uniqueNamespace } from '../support/redis.js';
import { startReplicas, stopReplicas, type Replica } from '../support/replicas.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.js';
import { sqliteFile } from '../support/store-backends.js';

const CALLBACKS = 32;
const STATE_REFUSED = 'This sign-in was not started in this browser, or took too long; start again.';

const STORES = [
  // Two servers on one host share the SQLite file.
  { kind: 'SQLite', url: async () => `sqlite://${sqliteFile()}` },
  { kind: 'Redis', url: sharedRedisUrl },
];

/** The value `cookies` (Set-Cookie header values) give `name`, if they set it to something. */
function cookieIn(cookies: readonly string[], name: string): string | undefined {
  for (const line of cookies) {
    const [pair] = line.split(';', 1);
    const at = pair!.indexOf('=');
    if (pair!.slice(0, at) === name && pair!.slice(at + 1) !== '') return pair!.slice(at + 1);
  }
  return undefined;
}
const cookieOf = (response: Response, name: string): string | undefined => cookieIn(response.headers.getSetCookie(), name);
const sessionOf = (answer: RawAnswer): string | undefined => cookieIn(answer.setCookies, 'mcp_console');

/**
 * The review's input for the console's OIDC sign-in: one browser's callback, with its one state, arriving 32
 * times at once at two servers behind a balancer that share the store. The state is single-use: one callback
 * goes on to the provider and gets a session; the others are refused before the provider is asked anything.
 */
for (const store of STORES) {
  describe(`console sign-in state, raced by ${CALLBACKS} callbacks over two servers on one ${store.kind} store`, function () {
    this.timeout(120_000);
    let issuer: CodeFlowIssuer;
    let proxy: RoundRobinProxy;
    let replicas: Replica[] = [];
    let base: string;

    before(async () => {
      issuer = await CodeFlowIssuer.start();
      proxy = await startRoundRobinProxy(() => replicas.map((r) => r.url));
      base = new URL(proxy.url).origin;
      replicas = await startReplicas(2, {
        storeUrl: await store.url(),
        namespace: uniqueNamespace('sign-in'),
        plugins: [],
        env: {
          MCP_AUTH_MODE: 'oidc',
          MCP_OIDC_ISSUER: issuer.issuer,
          MCP_EGRESS_ALLOW: new URL(issuer.issuer).host,
          MCP_OIDC_AUDIENCE: 'mcp-devtools',
          MCP_CONSOLE: 'true',
          MCP_APPROVER_GROUPS: 'approvers',
          MCP_CONSOLE_OIDC_CLIENT_ID: CONSOLE_CLIENT.id,
          MCP_CONSOLE_OIDC_CLIENT_SECRET: CONSOLE_CLIENT.secret,
          MCP_CONSOLE_OIDC_SCOPES: 'openid groups',
          // The balancer's address: the provider sends the browser back there.
          MCP_CONSOLE_PUBLIC_URL: base,
          LOG_LEVEL: 'warn',
        },
      });
    });
    after(async () => {
      await proxy?.close();
      await stopReplicas(replicas);
      await issuer?.close();
    });

    it('lets one callback of a sign-in through to the provider and into a session; the 31 others are refused', async () => {
      // The browser opens the sign-in page and presses the button (the form carries the page's CSRF token).
      const page = await fetch(`${base}/console/signin`);
      const csrf = cookieOf(page, 'mcp_console_signin')!;
      expect(csrf, 'sign-in form cookie').to.be.a('string');
      const started = await fetch(`${base}/console/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `mcp_console_signin=${csrf}` },
        body: new URLSearchParams({ csrf }).toString(),
      });
      expect(started.status, await started.clone().text()).to.equal(303);
      const authorize = started.headers.get('location')!;
      expect(authorize.startsWith(`${issuer.issuer}/protocol/openid-connect/auth?`)).to.equal(true);
      const state = cookieOf(started, 'mcp_console_state')!;
      expect(new URL(authorize).searchParams.get('state')).to.equal(state);

      // The provider signs olga in and sends the browser back; the callback arrives 32 times at once, half at each server.
      const code = issuer.issueCode(authorize, 'olga', ['approvers']);
      const answers = await simultaneousGets(
        replicas.map((r) => r.origin),
        CALLBACKS,
        `/console/callback?code=${code}&state=${encodeURIComponent(state)}`,
        { cookie: `mcp_console_state=${state}` },
      );
      const signedIn = answers.filter((a) => sessionOf(a) !== undefined);
      expect(
        signedIn.map((a) => a.status),
        'callbacks that got a session',
      ).to.deep.equal([200]);
      expect(issuer.tokenRequests, 'codes the console redeemed at the provider').to.equal(1);
      const refused = answers.filter((a) => sessionOf(a) === undefined);
      expect(refused.map((a) => a.status)).to.deep.equal(Array(CALLBACKS - 1).fill(400));
      for (const answer of refused) expect(answer.body).to.include(STATE_REFUSED);
    });
  });
}
