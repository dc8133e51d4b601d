import { MockUpstream, type MockReply, type RecordedRequest } from '../../../server/testing/mock-upstream.js';

/**
 * Jira, Confluence and Bitbucket Data Center under their context paths (/jira, /confluence, /bitbucket) and
 * CircleCI, each answering its "who am I" read for the one personal access token it knows, 401 otherwise,
 * with the bodies these products send. Confluence with anonymous access on answers an unknown token as the
 * anonymous user, as it does when the token is not sent at all.
 */
export async function dataCenterMocks(tokens: { jira: string; confluence: string; bitbucket: string; circleci: string }): Promise<MockUpstream> {
  const mock = await MockUpstream.start();
  const bearer = (r: RecordedRequest): string => /^Bearer (.+)$/.exec(r.headers.authorization ?? '')?.[1] ?? '';
  mock.on('GET', '/jira/rest/api/2/myself', (r) =>
    bearer(r) === tokens.jira
      ? {
          body: {
            self: `${mock.url}/jira/rest/api/2/user?username=alice`,
            key: 'JIRAUSER10100',
            name: 'alice',
            emailAddress: 'alice@acme.example',
            displayName: 'Alice Example',
            active: true,
            timeZone: 'Europe/Paris',
          },
        }
      : { status: 401, headers: { 'www-authenticate': 'OAuth realm="jira"' }, body: '' },
  );
  mock.on('GET', '/confluence/rest/api/user/current', (r) =>
    bearer(r) === tokens.confluence
      ? { body: { type: 'known', username: 'alice', userKey: '8a7f808a7b6d5e4c017b6d5e9a7c0001', displayName: 'Alice Example' } }
      : { body: { type: 'anonymous', profilePicture: { path: '/confluence/images/icons/profilepics/anonymous.svg' }, displayName: 'Anonymous' } },
  );
  mock.on('GET', '/bitbucket/plugins/servlet/applinks/whoami', (r): MockReply =>
    bearer(r) === tokens.bitbucket
      ? { headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-ausername': 'alice' }, body: 'alice' }
      : { status: 401, headers: { 'content-type': 'text/plain' }, body: '' },
  );
  mock.on('GET', '/api/v2/me', (r) =>
    r.headers['circle-token'] === tokens.circleci
      ? { body: { name: 'Alice Example', login: 'alice', id: '5a3c2f0e-6d3b-4e8a-9b1c-2f7e4d5c6b7a' } }
      : { status: 401, body: { message: 'You must log in first.' } },
  );
  return mock;
}
