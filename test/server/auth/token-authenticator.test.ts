import { rmSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { TokenAuthenticator } from '../../../server/auth/token-authenticator.js';
import { hashToken } from '../../../server/auth/token-hash.js';
import { capturedLogger, requestWith, tokensFileYaml } from '../../support/auth-fixture.js';
import { tempFile } from '../../support/enterprise-fixture.js';

const ALICE = 'tok-alice-4b1e9c0d';
const CAROL = 'tok-carol-77aa01f3';

describe('tokens authentication (MCP_AUTH_MODE=tokens)', () => {
  it('maps a bearer token to its principal through the SHA-256 in a YAML file', async () => {
    const path = tempFile(
      'tokens.yaml',
      `# issued 2026-11-30\n${tokensFileYaml([
        { token: ALICE, subject: 'alice', groups: ['developers'] },
        { token: CAROL, subject: 'carol', groups: ['contractors'] },
      ])}`,
    );
    const auth = await TokenAuthenticator.open(path, capturedLogger().logger);
    try {
      expect(await auth.authenticate(requestWith(`Bearer ${ALICE}`))).to.deep.equal({ principal: { subject: 'alice', groups: ['developers'], via: 'tokens' } });
      expect(await auth.authenticate(requestWith(`bearer ${CAROL}`))).to.deep.equal({
        principal: { subject: 'carol', groups: ['contractors'], via: 'tokens' },
      });
      expect(await auth.authenticate(requestWith('Bearer tok-unknown'))).to.deep.equal({ failure: 'the bearer token is not recognised.' });
      expect(await auth.authenticate(requestWith())).to.deep.equal({ failure: 'a bearer token is required (Authorization: Bearer <token>).', missing: true });
      expect(await auth.authenticate(requestWith(`Basic ${Buffer.from('alice:pw').toString('base64')}`))).to.deep.equal({
        failure: 'the Authorization header must be "Bearer <token>".',
      });
    } finally {
      auth.close();
    }
  });

  it('reads the JSON form of the issue, hashes in upper case included', async () => {
    const path = tempFile('tokens.json', JSON.stringify({ tokens: [{ sha256: hashToken(ALICE).toUpperCase(), subject: 'alice', groups: ['developers'] }] }));
    const auth = await TokenAuthenticator.open(path, capturedLogger().logger);
    try {
      expect(await auth.authenticate(requestWith(`Bearer ${ALICE}`))).to.have.nested.property('principal.subject', 'alice');
    } finally {
      auth.close();
    }
  });

  it('refuses to start on a bad file, naming the line, or on no file at all', async () => {
    const short = tempFile('tokens.yaml', 'tokens:\n  - sha256: abc123\n    subject: alice\n');
    const error = (await TokenAuthenticator.open(short, capturedLogger().logger).catch((e: unknown) => e)) as Error;
    expect(error).to.be.instanceOf(StartupError);
    expect(error.message).to.match(/^MCP_AUTH_TOKENS_FILE is invalid:\n.*tokens\.yaml line 2: tokens\[0\]\.sha256: must match pattern/);
    const twice = tempFile(
      'tokens.yaml',
      tokensFileYaml([
        { token: ALICE, subject: 'alice' },
        { token: ALICE, subject: 'mallory' },
      ]),
    );
    expect(((await TokenAuthenticator.open(twice, capturedLogger().logger).catch((e: unknown) => e)) as Error).message).to.contain(
      'line 5: tokens[1].sha256: the same hash is listed twice',
    );
    expect(((await TokenAuthenticator.open('', capturedLogger().logger).catch((e: unknown) => e)) as Error).message).to.contain(
      'MCP_AUTH_MODE=tokens needs MCP_AUTH_TOKENS_FILE',
    );
  });

  it('issues and revokes tokens when the file changes; an invalid edit keeps the last good tokens', async () => {
    const path = tempFile('tokens.yaml', tokensFileYaml([{ token: ALICE, subject: 'alice' }]));
    const { logger, lines } = capturedLogger();
    const auth = await TokenAuthenticator.open(path, logger);
    try {
      writeFileSync(path, tokensFileYaml([{ token: CAROL, subject: 'carol' }]));
      await auth.check();
      expect(await auth.authenticate(requestWith(`Bearer ${CAROL}`))).to.have.nested.property('principal.subject', 'carol');
      expect(await auth.authenticate(requestWith(`Bearer ${ALICE}`))).to.have.property('failure');
      writeFileSync(path, 'tokens:\n  - subject: nobody\n');
      await auth.check();
      expect(await auth.authenticate(requestWith(`Bearer ${CAROL}`))).to.have.nested.property('principal.subject', 'carol');
      const logged = lines.map((l) => JSON.parse(l) as { msg: string; problems?: string }).find((l) => l.msg.startsWith('tokens file changed but is invalid'));
      expect(logged?.problems).to.match(/tokens\.yaml line 2: tokens\[0\]\.sha256: is required/);
      expect(lines.join('\n')).not.to.contain(CAROL);
    } finally {
      auth.close();
    }
  });

  it('fails closed when the file is deleted: every token is refused until it can be read again', async () => {
    const text = tokensFileYaml([{ token: ALICE, subject: 'alice' }]);
    const path = tempFile('tokens.yaml', text);
    const { logger, lines } = capturedLogger();
    const auth = await TokenAuthenticator.open(path, logger);
    try {
      rmSync(path);
      await auth.check();
      expect(await auth.authenticate(requestWith(`Bearer ${ALICE}`))).to.deep.equal({ failure: 'the bearer token is not recognised.' });
      expect(lines.some((l) => l.includes('tokens file cannot be read; no bearer token is accepted until it can be read again'))).to.equal(true);
      // Put back exactly as it was: it is read again, though its text did not change.
      writeFileSync(path, text);
      await auth.check();
      expect(await auth.authenticate(requestWith(`Bearer ${ALICE}`))).to.have.nested.property('principal.subject', 'alice');
    } finally {
      auth.close();
    }
  });
});
