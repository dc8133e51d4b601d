import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { OidcAuthenticator } from '../../../server/auth/oidc-authenticator.js';
import { authSettings, capturedLogger, requestWith } from '../../support/auth-fixture.js';
import { AUDIENCE, FakeIssuer, foreignKey } from '../../support/fake-issuer.js';

describe('OIDC authentication (MCP_AUTH_MODE=oidc, a provider on loopback)', () => {
  let idp: FakeIssuer;
  let auth: OidcAuthenticator;

  before(async () => {
    idp = await FakeIssuer.start();
    auth = await OidcAuthenticator.fromSettings(
      authSettings({ MCP_AUTH_MODE: 'oidc', MCP_OIDC_ISSUER: idp.issuer, MCP_OIDC_AUDIENCE: AUDIENCE }),
      capturedLogger().logger,
    );
  });
  after(() => idp.close());

  const outcome = async (token: string): Promise<unknown> => auth.authenticate(requestWith(`Bearer ${token}`));

  it("accepts a token signed by the issuer's published key, found through discovery", async () => {
    expect(await outcome(await idp.sign({ sub: 'alice', groups: ['developers', 'oncall'] }))).to.deep.equal({
      principal: { subject: 'alice', groups: ['developers', 'oncall'], via: 'oidc' },
    });
    expect(idp.jwksFetches).to.equal(1);
    expect(await outcome(await idp.sign({ sub: 'bob' }))).to.deep.equal({ principal: { subject: 'bob', groups: [], via: 'oidc' } });
    expect(idp.jwksFetches).to.equal(1);
  });

  it('refuses a token of another issuer or audience', async () => {
    expect(await outcome(await idp.sign({ sub: 'alice' }, { issuer: 'https://evil.example/realms/acme' }))).to.deep.equal({
      failure: 'the token is not valid: unexpected "iss" claim value.',
    });
    expect(await outcome(await idp.sign({ sub: 'alice' }, { audience: 'another-service' }))).to.deep.equal({
      failure: 'the token is not valid: unexpected "aud" claim value.',
    });
  });

  it('checks expiry and not-before within the clock skew (60 s by default)', async () => {
    expect(await outcome(await idp.sign({ sub: 'alice' }, { expiresIn: -30 }))).to.have.nested.property('principal.subject', 'alice');
    expect(await outcome(await idp.sign({ sub: 'alice' }, { expiresIn: -120 }))).to.deep.equal({
      failure: 'the token is not valid: "exp" claim timestamp check failed.',
    });
    expect(await outcome(await idp.sign({ sub: 'alice' }, { notBefore: 30 }))).to.have.nested.property('principal.subject', 'alice');
    expect(await outcome(await idp.sign({ sub: 'alice' }, { notBefore: 600 }))).to.deep.equal({
      failure: 'the token is not valid: "nbf" claim timestamp check failed.',
    });
  });

  it('refuses a token that never expires (no exp), with or without iat', async () => {
    for (const issuedAt of [0, null]) {
      expect(await outcome(await idp.sign({ sub: 'alice' }, { expiresIn: null, issuedAt }))).to.deep.equal({
        failure: 'the token is not valid: missing required "exp" claim.',
      });
    }
  });

  it('refuses a token that lives longer than MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS (24 h by default, within the skew)', async () => {
    expect(await outcome(await idp.sign({ sub: 'alice' }, { expiresIn: 86_400 }))).to.have.nested.property('principal.subject', 'alice');
    expect(await outcome(await idp.sign({ sub: 'alice' }, { expiresIn: 86_400 + 61 }))).to.deep.equal({
      failure: 'the token is valid for 86461 s, longer than MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS (86400) allows.',
    });
    expect(await outcome(await idp.sign({ sub: 'alice' }, { expiresIn: 10 * 365 * 86_400, issuedAt: null })))
      .to.have.property('failure')
      .that.matches(/^the token is valid for \d+ s, longer than/);
    // Issued long ago and expiring soon is fine: the lifetime is exp - iat, not what is left of it.
    const short = await OidcAuthenticator.fromSettings(
      authSettings({ MCP_OIDC_ISSUER: idp.issuer, MCP_OIDC_AUDIENCE: AUDIENCE, MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS: '3600' }),
      capturedLogger().logger,
    );
    expect(await short.authenticate(requestWith(`Bearer ${await idp.sign({ sub: 'alice' }, { issuedAt: -3000, expiresIn: 300 })}`))).to.have.nested.property(
      'principal.subject',
      'alice',
    );
    expect(await short.authenticate(requestWith(`Bearer ${await idp.sign({ sub: 'alice' }, { issuedAt: -3000, expiresIn: 900 })}`)))
      .to.have.property('failure')
      .that.contains('valid for 3900 s');
  });

  it('refuses a token for another audience among several, or with no audience at all (a second audience test)', async () => {
    const other = await OidcAuthenticator.fromSettings(
      authSettings({ MCP_OIDC_ISSUER: idp.issuer, MCP_OIDC_AUDIENCE: 'mcp-devtools-staging' }),
      capturedLogger().logger,
    );
    expect(await other.authenticate(requestWith(`Bearer ${await idp.sign({ sub: 'alice' })}`))).to.deep.equal({
      failure: 'the token is not valid: unexpected "aud" claim value.',
    });
    expect(await outcome(await idp.sign({ sub: 'alice' }, { audience: ['grafana', 'mcp-devtools-staging'] }))).to.deep.equal({
      failure: 'the token is not valid: unexpected "aud" claim value.',
    });
    expect(await outcome(await idp.sign({ sub: 'alice' }, { audience: ['grafana', AUDIENCE] }))).to.have.nested.property('principal.subject', 'alice');
    expect(await outcome(await idp.sign({ sub: 'alice' }, { audience: 'mcp-devtools-' }))).to.deep.equal({
      failure: 'the token is not valid: unexpected "aud" claim value.',
    });
  });

  it('refuses forged, unsigned and malformed tokens', async () => {
    expect(await outcome(await idp.sign({ sub: 'alice' }, { key: await foreignKey() }))).to.deep.equal({
      failure: 'the token is not valid: signature verification failed.',
    });
    expect(await outcome(await idp.sign({ sub: 'alice' }, { key: await foreignKey(), kid: 'key-2' })))
      .to.have.property('failure')
      .that.matches(/^the token is not valid: no applicable key found/);
    const [, payload] = (await idp.sign({ sub: 'alice' })).split('.');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect(await outcome(unsigned))
      .to.have.property('failure')
      .that.matches(/^the token is not valid: /);
    expect(await outcome('not-a-jwt')).to.deep.equal({ failure: 'the token is not valid: Invalid Compact JWS.' });
    expect(await auth.authenticate(requestWith())).to.include({ missing: true });
  });

  it('refuses a token without a subject', async () => {
    expect(await outcome(await idp.sign({ groups: ['developers'] }))).to.deep.equal({ failure: 'the token has no "sub" claim to name its subject.' });
  });

  it('reads the subject and groups from configured claims (Keycloak roles, a space-separated string)', async () => {
    const keycloak = await OidcAuthenticator.fromSettings(
      authSettings({
        MCP_OIDC_ISSUER: idp.issuer,
        MCP_OIDC_AUDIENCE: AUDIENCE,
        MCP_OIDC_SUBJECT_CLAIM: 'preferred_username',
        MCP_OIDC_GROUPS_CLAIM: 'realm_access.roles',
      }),
      capturedLogger().logger,
    );
    const token = await idp.sign({ sub: 'f81d4fae-7dec', preferred_username: 'alice', realm_access: { roles: ['developers', 'release-engineers'] } });
    expect(await keycloak.authenticate(requestWith(`Bearer ${token}`))).to.deep.equal({
      principal: { subject: 'alice', groups: ['developers', 'release-engineers'], via: 'oidc' },
    });
    const scoped = await OidcAuthenticator.fromSettings(
      authSettings({ MCP_OIDC_ISSUER: idp.issuer, MCP_OIDC_AUDIENCE: AUDIENCE, MCP_OIDC_GROUPS_CLAIM: 'scope' }),
      capturedLogger().logger,
    );
    expect(await scoped.authenticate(requestWith(`Bearer ${await idp.sign({ sub: 'svc', scope: 'jira:read ci:write' })}`))).to.deep.equal({
      principal: { subject: 'svc', groups: ['jira:read', 'ci:write'], via: 'oidc' },
    });
  });

  it("answers 503, not 401, when the issuer's keys cannot be fetched", async () => {
    const down = await MockUpstream.start();
    const url = `${down.url}/certs`;
    await down.close();
    const offline = await OidcAuthenticator.fromSettings(
      authSettings({ MCP_OIDC_ISSUER: idp.issuer, MCP_OIDC_AUDIENCE: AUDIENCE, MCP_OIDC_JWKS_URL: url }),
      capturedLogger().logger,
    );
    expect(await offline.authenticate(requestWith(`Bearer ${await idp.sign({ sub: 'alice' })}`))).to.deep.equal({
      failure: `the token cannot be checked now: the issuer's keys at ${url} could not be fetched. Try again shortly.`,
      status: 503,
    });
  });

  it('refuses to start without issuer and audience, with plain http to another host, or when discovery disagrees', async () => {
    const start = (values: Record<string, string>): Promise<unknown> =>
      OidcAuthenticator.fromSettings(authSettings(values), capturedLogger().logger).catch((e: unknown) => e);
    const missing = await start({ MCP_OIDC_ISSUER: idp.issuer });
    expect(missing).to.be.instanceOf(StartupError).and.to.have.property('message').that.contains('needs MCP_OIDC_ISSUER');
    const clear = await start({ MCP_OIDC_ISSUER: 'http://idp.example.com/realms/acme', MCP_OIDC_AUDIENCE: AUDIENCE });
    expect((clear as Error).message).to.contain('must be an https:// URL');
    const mismatch = await start({ MCP_OIDC_ISSUER: `${idp.issuer}/`, MCP_OIDC_AUDIENCE: AUDIENCE });
    expect((mismatch as Error).message).to.match(/names the issuer ".*\/realms\/acme", not MCP_OIDC_ISSUER=.*\/realms\/acme\/; they must be identical\.$/);
  });
});
