// Console sessions re-checked against what let them in, with the kernel's clock under the test's control: the
// credential is asked again once the interval has passed (not before), and a revoked token, changed groups or a
// check that fails end the session. Sealed OIDC access tokens are unreadable from the store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { resolveConfig } from '../../server/bootstrap/resolve-config.js';
import { ConsoleSettings } from '../../server/console/console-settings.js';
import { serverSettingsSchemas } from '../../server/cli/server-settings.js';
import { openMemoryStore } from '../../core/store/memory-store.js';
import { CheckedSessions, type Recheck } from '../../server/console/session-check.js';
import { openSecret, sealSecret } from '../../server/console/sealed-secret.js';
import { SessionStore, type ConsoleSession } from '../../server/console/sessions.js';
import { capturedLogger } from '../support/auth-fixture.js';
import { manualClock } from '../support/enterprise-fixture.js';

const OLGA = { subject: 'olga', groups: ['approvers', 'developers'], via: 'tokens' };
const TOKEN = { kind: 'token', sha256: 'c0'.repeat(32) } as const;

describe('console session re-checks', () => {
  function setUp(answer: () => Recheck | Promise<Recheck>): {
    clock: ReturnType<typeof manualClock>;
    sessions: SessionStore;
    checked: CheckedSessions;
    asked: number[];
  } {
    const clock = manualClock();
    const sessions = new SessionStore(openMemoryStore('console-check-test', 1000), clock, 8 * 3600_000);
    const asked: number[] = [];
    const check = async (): Promise<Recheck> => {
      asked.push(clock.now());
      return answer();
    };
    return { clock, sessions, checked: new CheckedSessions(sessions, check, clock, 60_000, capturedLogger().logger), asked };
  }

  it('asks again only once the interval has passed, and keeps an unchanged session', async () => {
    const { clock, sessions, checked, asked } = setUp(() => ({ subject: 'olga', groups: ['developers', 'approvers'] }));
    const { id } = await sessions.create(OLGA, TOKEN);
    clock.advance(59_999);
    expect(await checked.lookup(id)).to.have.property('session');
    expect(asked).to.have.length(0);
    clock.advance(1);
    expect(await checked.lookup(id)).to.have.property('session');
    expect(asked).to.have.length(1);
    // Checked now: the next minute needs no check.
    clock.advance(30_000);
    await checked.lookup(id);
    expect(asked).to.have.length(1);
  });

  it('checks again a session whose check time lies ahead of the clock (the clock was set back, or a stored time is in the future)', async () => {
    const { clock, sessions, checked, asked } = setUp(() => ({ subject: 'olga', groups: ['approvers', 'developers'] }));
    const { id } = await sessions.create(OLGA, TOKEN);
    // The server's clock is set back an hour: the check time written at sign-in is now an hour ahead.
    clock.advance(-3600_000);
    const found = await checked.lookup(id);
    expect(asked).to.deep.equal([clock.now()]);
    expect(found).to.have.nested.property('session.checkedAt', new Date(clock.now()).toISOString());
    // A check time a day ahead (written by a replica whose clock ran fast, or edited in the store) is no pass either.
    const session = (await sessions.get(id))!;
    await sessions.update(id, { ...session, checkedAt: new Date(clock.now() + 86_400_000).toISOString() });
    await checked.lookup(id);
    expect(asked).to.have.length(2);
  });

  it('ends a revoked session whose check time lies ahead of the clock, at the next request', async () => {
    const { clock, sessions, checked } = setUp(() => ({ ended: 'its token is no longer in the tokens file' }));
    const { id } = await sessions.create(OLGA, TOKEN);
    clock.advance(-10 * 60_000);
    expect(await checked.lookup(id)).to.deep.equal({ ended: true });
    expect(await sessions.get(id)).to.equal(undefined);
  });

  it('ends the session, on the server too, when the token is revoked, names someone else, the groups change, or the check fails', async () => {
    const answers: Array<() => Recheck> = [
      () => ({ ended: 'its token is no longer in the tokens file' }),
      () => ({ subject: 'olga', groups: ['developers'] }),
      // The token now names someone else with the same groups: the session does not carry on as olga.
      () => ({ subject: 'mallory', groups: ['approvers', 'developers'] }),
      () => {
        throw new Error('the identity provider cannot be reached');
      },
    ];
    for (const answer of answers) {
      const { clock, sessions, checked } = setUp(answer);
      const { id } = await sessions.create(OLGA, TOKEN);
      clock.advance(60_000);
      expect(await checked.lookup(id)).to.deep.equal({ ended: true });
      expect(await sessions.get(id)).to.equal(undefined);
      expect(await checked.lookup(id)).to.equal(undefined);
    }
  });

  it('seals an OIDC access token with a key only the cookie gives: the stored session holds no token', async () => {
    const store = openMemoryStore('console-seal-test', 1000);
    const sessions = new SessionStore(store, manualClock(), 60_000);
    const accessToken = 'eyJ-opaque-access-token-7f3c';
    const { id, session } = await sessions.create({ subject: 'olga', groups: [], via: 'oidc' }, { kind: 'oidc', sub: 'olga', accessToken, expiresAt: 1 });
    const stored = (await sessions.get(id)) as ConsoleSession;
    expect(JSON.stringify(stored)).not.to.include(accessToken);
    expect(stored.credential).to.deep.include({ kind: 'oidc', sub: 'olga', expiresAt: 1 });
    const sealed = (session.credential as { sealed: string }).sealed;
    expect(openSecret(sealed, id)).to.equal(accessToken);
    expect(openSecret(sealed, `${id.slice(0, -1)}${id.endsWith('A') ? 'E' : 'A'}`)).to.equal(undefined);
    expect(
      openSecret(
        sealSecret(accessToken, id).replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        id,
      ),
    ).to.equal(undefined);
  });
});

describe('MCP_CONSOLE_SESSION_RECHECK_SECONDS: how old a session check may be', () => {
  const startUp = (value: string) =>
    resolveConfig({
      cwd: mkdtempSync(join(tmpdir(), 'recheck-cwd-')),
      home: mkdtempSync(join(tmpdir(), 'recheck-home-')),
      env: { MCP_CONSOLE_SESSION_RECHECK_SECONDS: value },
      extraSettings: serverSettingsSchemas,
    });

  it('fails start-up above 60 seconds (61) or below 1, naming the setting and the value', async () => {
    for (const value of ['61', '3600', '0']) {
      const error = await startUp(value).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error, value).not.to.equal(undefined);
      expect(error!.message).to.contain(`MCP_CONSOLE_SESSION_RECHECK_SECONDS="${value}" from environment`);
    }
  });

  it('accepts 1 to 60 seconds', async () => {
    for (const value of ['1', '60']) {
      const { settings } = await startUp(value);
      expect(settings.of(ConsoleSettings).MCP_CONSOLE_SESSION_RECHECK_SECONDS, value).to.equal(Number(value));
    }
  });
});
