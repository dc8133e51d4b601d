import { SecretText } from '../../../core/identity/secret-text.js';
import { AtlassianFlow } from '../../../plugins/identity/flows/atlassian-flow.js';
import { BitbucketFlow } from '../../../plugins/identity/flows/bitbucket-flow.js';
import { LoopbackOAuthServer, type OAuthServerOptions } from './oauth-server.js';

/** Where the tests' server says the person comes back to; nothing listens there (the test carries the code over). */
export const CALLBACK_BASE = 'http://127.0.0.1:9/identity/callback';

export const ATLASSIAN_APP = { id: 'atlassian-3lo-app', secret: 'atlassian-3lo-secret-7c1e55aa' };
export const BITBUCKET_APP = { id: 'bitbucket-consumer-key', secret: 'bitbucket-consumer-secret-93b1d0' };

/** The cloud id of the site the tests' grants reach (acme.atlassian.net). */
export const ACME_CLOUD_ID = 'a436116f-02ce-4520-8fbb-7301462a1674';

/** Atlassian's authorization server and API gateway in one loopback server, as a 3LO app sees them. */
export function atlassianServer(accessTokenSeconds = 3600, api?: OAuthServerOptions['api'], redirectBase = CALLBACK_BASE): Promise<LoopbackOAuthServer> {
  return LoopbackOAuthServer.start({
    ...(api === undefined ? {} : { api }),
    routes: { authorization: '/authorize', token: '/oauth/token' },
    client: { ...ATLASSIAN_APP, redirectUri: `${redirectBase}/atlassian`, authentication: 'client_secret_post' },
    accessTokenSeconds,
    resources: {
      '/oauth/token/accessible-resources': () => [
        { id: 'a436116f-02ce-4520-8fbb-7301462a1674', url: 'https://acme.atlassian.net', name: 'acme', scopes: ['read:jira-work', 'write:jira-work'] },
      ],
      '/me': (account) => ({ account_id: `712020:${account}`, email: `${account}@acme.example`, name: account, nickname: account }),
    },
  });
}

export function atlassianFlow(server: LoopbackOAuthServer): AtlassianFlow {
  return atlassianFlowFor(server);
}

/** The flow of a server whose ATLASSIAN_SITE_NAME is `site`. */
export function atlassianFlowFor(server: LoopbackOAuthServer, site?: string): AtlassianFlow {
  return new AtlassianFlow({
    ...(site === undefined ? {} : { site }),
    client: { clientId: ATLASSIAN_APP.id, clientSecret: new SecretText(ATLASSIAN_APP.secret), redirectUri: `${CALLBACK_BASE}/atlassian` },
    scopes: 'read:jira-work write:jira-work read:me',
    authBaseUrl: server.url,
    apiBaseUrl: server.url,
  });
}

/** Bitbucket Cloud's authorization server (bitbucket.org/site/oauth2) and API (/2.0/user) in one loopback server. */
export function bitbucketServer(accessTokenSeconds = 7200): Promise<LoopbackOAuthServer> {
  return LoopbackOAuthServer.start({
    routes: { authorization: '/site/oauth2/authorize', token: '/site/oauth2/access_token' },
    client: { ...BITBUCKET_APP, redirectUri: `${CALLBACK_BASE}/bitbucket`, authentication: 'client_secret_basic' },
    accessTokenSeconds,
    resources: {
      '/2.0/user': (account) => ({ account_id: `557058:${account}`, uuid: `{${account}-uuid}`, username: account, display_name: account, type: 'user' }),
    },
  });
}

export function bitbucketFlow(server: LoopbackOAuthServer): BitbucketFlow {
  return new BitbucketFlow({
    client: { clientId: BITBUCKET_APP.id, clientSecret: new SecretText(BITBUCKET_APP.secret), redirectUri: `${CALLBACK_BASE}/bitbucket` },
    authBaseUrl: server.url,
    apiBaseUrl: server.url,
  });
}
