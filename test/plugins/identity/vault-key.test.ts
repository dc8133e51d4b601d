import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { parseVaultKey, readVaultKey } from '../../../plugins/identity/vault-key.js';
import { leakAudit } from '../../support/leak-audit/leak-audit.js';
import { RUN_TEMP } from '../../support/run-temp.js';

describe('The vault key (MCP_VAULT_KEY, MCP_VAULT_KEY_FILE)', () => {
  const bytes = randomBytes(32);
  leakAudit.addCanaries([bytes.toString('hex'), bytes.toString('base64')]);

  it('reads the same key from hex, base64 and unpadded base64url, and shows only its id', () => {
    const forms = [
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      bytes.toString('base64'),
      bytes.toString('base64url'),
      ` ${bytes.toString('base64')}\n`,
    ];
    const ids = forms.map((f) => parseVaultKey(f, 'MCP_VAULT_KEY').id);
    expect(new Set(ids).size).to.equal(1);
    expect(ids[0]).to.match(/^[0-9a-f]{16}$/);
    const key = parseVaultKey(forms[0]!, 'MCP_VAULT_KEY');
    for (const shown of [String(key), JSON.stringify({ key }), inspect(key, { showHidden: true })]) {
      expect(shown).to.equal(shown.includes('"') ? `{"key":"VaultKey(${key.id})"}` : `VaultKey(${key.id})`);
    }
    expect(parseVaultKey(randomBytes(32).toString('hex'), 'MCP_VAULT_KEY').id).not.to.equal(key.id);
  });

  it('refuses a value that is not 32 bytes, naming the setting and how to make one, never repeating the value', () => {
    for (const bad of [
      randomBytes(16).toString('hex'),
      randomBytes(31).toString('base64'),
      randomBytes(33).toString('base64'),
      'correct horse battery staple',
      '',
    ]) {
      const error = (() => {
        try {
          parseVaultKey(bad, 'MCP_VAULT_KEY');
        } catch (e) {
          return e as Error;
        }
        throw new Error(`accepted ${bad}`);
      })();
      expect(error.message).to.equal(
        'MCP_VAULT_KEY must be 32 random bytes written as 64 hex digits or as base64 (make one with: openssl rand -base64 32); the value given is neither.',
      );
    }
  });

  it('reads MCP_VAULT_KEY_FILE, refuses both settings at once and an unreadable file, and is undefined when neither is set', () => {
    const file = join(RUN_TEMP, `vault-key-${randomBytes(4).toString('hex')}`);
    writeFileSync(file, `${bytes.toString('base64')}\n`, { mode: 0o600 });
    expect(readVaultKey({ MCP_VAULT_KEY_FILE: file })!.id).to.equal(parseVaultKey(bytes.toString('hex'), 'x').id);
    expect(readVaultKey({ MCP_VAULT_KEY: '', MCP_VAULT_KEY_FILE: '' })).to.equal(undefined);
    expect(() => readVaultKey({ MCP_VAULT_KEY: bytes.toString('hex'), MCP_VAULT_KEY_FILE: file })).to.throw(
      'Set MCP_VAULT_KEY or MCP_VAULT_KEY_FILE, not both: they name the same key.',
    );
    expect(() => readVaultKey({ MCP_VAULT_KEY_FILE: `${file}-missing` })).to.throw(
      `MCP_VAULT_KEY_FILE=${file}-missing cannot be read (ENOENT); give a file holding the vault key.`,
    );
  });
});
