import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { OidcAuthenticator } from '../../../server/auth/oidc-authenticator.js';
import { authSettings, capturedLogger, requestWith } from '../../support/auth-fixture.js';
import { AUDIENCE, FakeIssuer, foreignKey } from '../../support/fake-issuer.js';

describe('OIDC authentication (MCP_AUTH_MODE=oidc, a provider on loopback)', () => {
  let idp: FakeIssuer;
  let auth: OidcAuthenticator;
  /** The provider is on loopback, which the egress guard refuses: allowed as an operator allows an in-house one. */
  const allowIdp = (): Record<string, string> => ({ MCP_EGRESS_ALLOW: new URL(idp.issuer).host });

  before(async () => {
    idp = await FakeIssuer.start();
    auth = await OidcAuthenticator.fromSettings(
      authSettings({ MCP_AUTH_MODE: 'oidc', MCP_OIDC_ISSUER: idp.issuer, ...allowIdp(), MCP_OIDC_AUDIENCE: AUDIENCE }),
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
      authSettings({ MCP_OIDC_ISSUER: idp.issuer, ...allowIdp(), MCP_OIDC_AUDIENCE: AUDIENCE, MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS: '3600' }),
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
      authSettings({ MCP_OIDC_ISSUER: idp.issuer, ...allowIdp(), MCP_OIDC_AUDIENCE: 'mcp-devtools-staging' }),
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
        ...allowIdp(),
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
      authSettings({ MCP_OIDC_ISSUER: idp.issuer, ...allowIdp(), MCP_OIDC_AUDIENCE: AUDIENCE, MCP_OIDC_GROUPS_CLAIM: 'scope' }),
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
      authSettings({
        MCP_OIDC_ISSUER: idp.issuer,
        MCP_OIDC_AUDIENCE: AUDIENCE,
        MCP_OIDC_JWKS_URL: url,
        MCP_EGRESS_ALLOW: `${new URL(idp.issuer).host},${new URL(url).host}`,
      }),
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
    const mismatch = await start({ MCP_OIDC_ISSUER: `${idp.issuer}/`, ...allowIdp(), MCP_OIDC_AUDIENCE: AUDIENCE });
    expect((mismatch as Error).message).to.match(/names the issuer ".*\/realms\/acme", not MCP_OIDC_ISSUER=.*\/realms\/acme\/; they must be identical\.$/);
  });
  describe('the egress guard: keys and discovery at loopback, private or metadata addresses only when MCP_EGRESS_ALLOW names them', () => {
    let provider: MockUpstream;
    before(async () => {
      provider = await MockUpstream.start();
    });
    after(() => provider.close());

    /** A provider on loopback (allowed) whose discovery document names these keys. */
    const discovering = (jwks: string): Promise<unknown> => {
      const issuer = `${provider.url}/realms/acme`;
      provider.reset();
      provider.on('GET', '/realms/acme/.well-known/openid-configuration', { body: { issuer, jwks_uri: jwks } });
      return OidcAuthenticator.fromSettings(
        authSettings({ MCP_OIDC_ISSUER: issuer, MCP_OIDC_AUDIENCE: AUDIENCE, MCP_EGRESS_ALLOW: new URL(provider.url).host }),
        capturedLogger().logger,
      ).catch((e: unknown) => e);
    };

    it('refuses at start-up a discovered jwks_uri at a metadata or private address, saying what to allow', async () => {
      const metadata = await discovering('https://169.254.169.254/latest/meta-data/iam/keys');
      expect(metadata).to.be.instanceOf(StartupError);
      expect((metadata as Error).message).to.equal(
        'jwks_uri (discovered) https://169.254.169.254/latest/meta-data/iam/keys is not fetched: 169.254.169.254 is a cloud metadata address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.',
      );
      const internal = await discovering('https://10.20.0.7/certs');
      expect((internal as Error).message).to.equal(
        'jwks_uri (discovered) https://10.20.0.7/certs is not fetched: 10.20.0.7 is a private (RFC 1918) address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.',
      );
      // Judged on what the name resolves to, too: localhost is loopback (on another port than the one allowed).
      const named = await discovering('http://localhost:9/certs');
      expect((named as Error).message).to.match(
        /^jwks_uri \(discovered\) http:\/\/localhost:9\/certs is not fetched: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address\./,
      );
      expect(provider.requests.map((r) => r.path)).to.deep.equal(['/realms/acme/.well-known/openid-configuration']);
    });

    it('refuses the discovery of a loopback issuer MCP_EGRESS_ALLOW does not name, and reaches it once it does', async () => {
      const refused = await OidcAuthenticator.fromSettings(
        authSettings({ MCP_OIDC_ISSUER: idp.issuer, MCP_OIDC_AUDIENCE: AUDIENCE }),
        capturedLogger().logger,
      ).catch((e: unknown) => e);
      expect((refused as Error).message).to.equal(
        `OIDC discovery at ${idp.issuer}/.well-known/openid-configuration is not fetched: 127.0.0.1 is a loopback address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.`,
      );
      const allowed = await OidcAuthenticator.fromSettings(
        authSettings({ MCP_OIDC_ISSUER: idp.issuer, MCP_OIDC_AUDIENCE: AUDIENCE, ...allowIdp() }),
        capturedLogger().logger,
      );
      expect(await allowed.authenticate(requestWith(`Bearer ${await idp.sign({ sub: 'alice' })}`))).to.have.nested.property('principal.subject', 'alice');
    });

    it('checks each fetch of the keys where the connection is made: a name that resolves to loopback is refused (503, with why)', async () => {
      const jwksUrl = new URL(`http://localhost:${new URL(idp.issuer).port}/realms/acme/protocol/openid-connect/certs`);
      const before = idp.jwksFetches;
      const guarded = new OidcAuthenticator({
        issuer: idp.issuer,
        audience: AUDIENCE,
        jwksUrl,
        clockSkewSeconds: 60,
        maxLifetimeSeconds: 86_400,
        subjectClaim: 'sub',
        groupsClaim: 'groups',
      });
      const outcome = (await guarded.authenticate(requestWith(`Bearer ${await idp.sign({ sub: 'alice' })}`))) as { failure: string; status: number };
      expect(outcome.status).to.equal(503);
      expect(outcome.failure).to.match(
        new RegExp(
          `^the token cannot be checked: the issuer's keys at ${jwksUrl.href.replace(/[.?]/g, '\\$&')} are not fetched: localhost resolves to (127\\.0\\.0\\.1|::1), which is a loopback address\\. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW\\.$`,
        ),
      );
      expect(idp.jwksFetches).to.equal(before);
    });
  });
});
