import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { auditLines } from '../support/audit-records.js';
import type { LoopbackOAuthServer } from '../support/identity/oauth-server.js';
import { sqliteBytes } from '../support/identity/vault-fixture.js';
import { ACME_CLOUD_ID, ATLASSIAN_APP, atlassianServer } from '../support/identity/vendor-servers.js';
import { PUBLIC_URL, sentence, startActingServer, type ActingServer } from '../support/identity/acting-server.js';

const TOKENS = { alice: 'tok-alice-jira-acting-2e8c51', bob: 'tok-bob-jira-acting-7f04b9' };
const BOT = { email: 'jira-bot@acme.example', token: 'ATATT-service-token-of-jira-bot-3c9e' };
const COMMENT_PATH = `/ex/jira/${ACME_CLOUD_ID}/rest/api/3/issue/PLAT-7/comment`;

describe('Acting as the person on Jira Cloud over Streamable HTTP (JIRA_CREDENTIALS=user, Atlassian 3LO)', function () {
  this.timeout(60_000);
  let atlassian: LoopbackOAuthServer;
  let acting: ActingServer;
  let dir: string;
  let linkRoute: ActingServer['linkRoute'];
  let connect: ActingServer['connect'];

  before(async () => {
    // Atlassian's authorization server (a real OAuth 2.0 server: PKCE, rotating refresh tokens) and its API gateway.
    atlassian = await atlassianServer(
      3600,
      {
        prefix: `/ex/jira/${ACME_CLOUD_ID}/rest/api/3/`,
        answer: (account, request) =>
          request.method === 'POST' && request.path === COMMENT_PATH
            ? { status: 201, body: { id: '10001', created: '2026-12-07T09:00:00.000+0000', author: { accountId: `712020:${account}` } } }
            : { status: 404, body: { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} } },
      },
      `${PUBLIC_URL}/identity/callback`,
    );
    acting = await startActingServer(TOKENS, ['jira'], {
      ATLASSIAN_SITE_NAME: 'acme',
      ATLASSIAN_USER_EMAIL: BOT.email,
      ATLASSIAN_API_TOKEN: BOT.token,
      JIRA_CREDENTIALS: 'user',
      ATLASSIAN_OAUTH_CLIENT_ID: ATLASSIAN_APP.id,
      ATLASSIAN_OAUTH_CLIENT_SECRET: ATLASSIAN_APP.secret,
      ATLASSIAN_OAUTH_SCOPES: 'read:jira-work write:jira-work read:me',
      ATLASSIAN_OAUTH_AUTH_URL: atlassian.url,
      ATLASSIAN_API_GATEWAY_URL: atlassian.url,
    });
    ({ dir, linkRoute, connect } = acting);
  });
  after(async () => {
    await acting?.close();
    await atlassian?.close();
  });

  it('alice links over 3LO; her jira_add_comment goes through the API gateway as her account, and the audit names it', async () => {
    const started = await linkRoute('/atlassian', TOKENS.alice);
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    // Alice signs in at Atlassian and consents; the browser is sent back to the callback with a code.
    const back = await atlassian.authorize(String(started.body.url), 'alice');
    const linked = await linkRoute('/atlassian/callback', TOKENS.alice, { code: back.searchParams.get('code'), state: back.searchParams.get('state') });
    expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
    expect(linked.body).to.include({ vendor: 'atlassian', accountId: '712020:alice', siteId: ACME_CLOUD_ID });

    const alice = await connect(TOKENS.alice);
    const result = (await alice.callTool({ name: 'jira_add_comment', arguments: { issueKey: 'PLAT-7', body: 'Seen on staging too.' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
    const sent = atlassian.apiRequests.filter((r) => r.path === COMMENT_PATH);
    expect(sent).to.have.length(1);
    expect(sent[0]!.account).to.equal('alice');
    expect(JSON.parse(sent[0]!.body)).to.have.nested.property('body.type', 'doc');
    const identity = { kind: 'user', vendor: 'jira', account: 'atlassian', accountId: '712020:alice', login: 'alice@acme.example' };
    expect(result._meta?.['mcp-devtools/upstream']).to.deep.include(identity);
    const audited = auditLines(join(dir, 'audit.jsonl')) as unknown as Array<{
      tool: string;
      principal: { subject: string };
      upstream: Record<string, unknown>;
    }>;
    expect(audited.find((r) => r.tool === 'jira_add_comment' && r.principal.subject === 'alice')!.upstream).to.deep.include(identity);
  });

  it('bob, who has not linked, is refused with where to link; nothing is sent with the service account', async () => {
    const bob = await connect(TOKENS.bob);
    const before = atlassian.apiRequests.length;
    const result = (await bob.callTool({ name: 'jira_add_comment', arguments: { issueKey: 'PLAT-7', body: 'From bob' } })) as CallToolResult;
    expect(result.isError).to.equal(true);
    expect(sentence(result)).to.equal(`You have not linked your Atlassian Cloud account yet; link it at ${PUBLIC_URL}/console/accounts.`);
    expect(atlassian.apiRequests.length).to.equal(before);
    const basic = Buffer.from(`${BOT.email}:${BOT.token}`).toString('base64');
    expect(atlassian.apiRequests.some((r) => r.authorization.includes(basic))).to.equal(false);
  });

  it('the SQLite file holds none of the tokens Atlassian issued, in clear', () => {
    const bytes = sqliteBytes(join(dir, 'store.db'));
    expect(atlassian.issued.length).to.be.greaterThan(0);
    for (const token of atlassian.issued) expect(bytes.includes(token), 'a token in clear in the store').to.equal(false);
  });
});
