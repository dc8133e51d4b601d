import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKENS } from '../../../core/tokens.js';
import type { LinkedAccounts } from '../../../core/identity/linked-accounts.js';
import type { TokenVault } from '../../../plugins/identity/index.js';
import { canaryLink } from '../../support/identity/vault-fixture.js';
import { rejection } from '../../support/async.js';
import { leakAudit } from '../../support/leak-audit/leak-audit.js';
import { sqliteFile } from '../../support/store-backends.js';
import { startTestKernel, type TestKernel } from '../../support/test-kernel.js';
import { RUN_TEMP } from '../../support/run-temp.js';

/** A vault key as an operator writes it, registered as a canary: it must never be printed, logged or stored. */
function operatorKey(encoding: 'hex' | 'base64'): string {
  const key = randomBytes(32).toString(encoding);
  leakAudit.addCanaries([key]);
  return key;
}

describe('The identity plugin at start-up', () => {
  const kernels: TestKernel[] = [];
  afterEach(async () => {
    for (const k of kernels.splice(0)) await k.close();
  });
  const start = async (env: Record<string, string>) => {
    const kernel = await startTestKernel({ env });
    kernels.push(kernel);
    return kernel;
  };

  it('without a vault key, provides no linked accounts and changes nothing', async () => {
    const kernel = await start({});
    expect(kernel.kernel.plugins).to.include('identity');
    expect(() => kernel.kernel.resolve(TOKENS.LinkedAccounts)).to.throw();
  });

  it('opens the vault with MCP_VAULT_KEY, and a restart with another key on the same store refuses in one sentence', async () => {
    const store = `sqlite://${sqliteFile()}`;
    const first = await start({ MCP_STORE_URL: store, MCP_VAULT_KEY: operatorKey('base64') });
    const vault = first.kernel.resolve<TokenVault>(TOKENS.LinkedAccounts);
    await vault.save('alice@acme', 'github', canaryLink('alice'));
    expect((await (vault as LinkedAccounts).credential('alice@acme', 'github'))!.identity.login).to.equal('alice');
    await first.close();
    kernels.splice(0);

    const keyFile = join(RUN_TEMP, `vault-key-${randomBytes(4).toString('hex')}`);
    writeFileSync(keyFile, `${operatorKey('hex')}\n`, { mode: 0o600 });
    const error = await rejection(start({ MCP_STORE_URL: store, MCP_VAULT_KEY_FILE: keyFile }));
    expect(error.message).to.match(
      /The vault key \(key id [0-9a-f]{16}, from MCP_VAULT_KEY or MCP_VAULT_KEY_FILE\) does not open the linked accounts in the store/,
    );
    expect(error.message).to.match(/nothing was changed\.$/);
  });

  it('refuses a vault key that is not 32 bytes of hex or base64, without repeating it', async () => {
    const bad = `not-a-key-${randomBytes(6).toString('hex')}`;
    const error = await rejection(start({ MCP_VAULT_KEY: bad }));
    expect(error.message).to.include('MCP_VAULT_KEY must be 32 random bytes written as 64 hex digits or as base64 (make one with: openssl rand -base64 32)');
    expect(error.message).not.to.include(bad);
  });
});
