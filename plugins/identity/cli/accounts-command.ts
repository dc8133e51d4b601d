import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { StartupError } from '../../../core/errors/tool-error.js';
import { isLinkVendor, LINK_VENDORS, VENDOR_NAMES, type LinkVendor } from '../../../core/identity/acting-identity.js';
import type { LinkedAccountSummary } from '../../../core/identity/linked-accounts.js';
import type { CommandKit, ConfigOptions } from '../../../core/plugin/contributions.js';
import type { AccountLinking } from '../account-linking.js';
import { IDENTITY_TOKENS } from '../identity-tokens.js';
import { IdentitySettings } from '../identity-settings.js';
import type { Linker } from '../link-states.js';
import { rotateVaultKey } from '../rotate-key.js';
import { parseVaultKey, readVaultKey } from '../vault-key.js';
import { readSecretLine } from './secret-input.js';

interface AccountOptions extends ConfigOptions {
  as?: string;
}

/**
 * `mcp-devtools accounts connect|list|disconnect <vendor>` for a local server's person (`local`, or `--as` the
 * subject a shared store knows them by), and `accounts rotate-key` for the operator. GitHub links by device
 * code (the person opens the page shown and types the code: no browser redirect to this machine); a personal
 * access token is typed at a hidden prompt or piped on stdin, never given as an argument (shell history) and
 * never through the model.
 */
export function registerAccounts(accounts: Command, cli: CommandKit): void {
  const withAs = (command: Command): Command =>
    cli.withConfigOptions(command).option('--as <subject>', 'the principal the accounts are linked for (default: local, the stdio principal)');

  withAs(accounts.command('list').description('list your linked accounts: vendor, login, scopes, expiry, last use, whether the vendor refused it')).action(
    async (options: AccountOptions) =>
      withLinking(cli, options, async (linking, linker) => {
        const listed = await linking.accounts(linker.principal);
        if (listed.length === 0) process.stdout.write(`No linked accounts for ${linker.principal}.\n`);
        for (const account of listed) process.stdout.write(`${describe(account)}\n`);
      }),
  );

  withAs(
    accounts
      .command('connect <vendor>')
      .description(`link your account: ${LINK_VENDORS.join(', ')} (GitHub by device code; personal tokens at a hidden prompt or on stdin)`),
  ).action(async (vendor: string, options: AccountOptions) =>
    withLinking(cli, options, async (linking, linker) => {
      const chosen = vendorOf(vendor);
      const offered = linking.vendors;
      let linked: LinkedAccountSummary;
      if (chosen === 'github' && offered.device.includes('github')) linked = await deviceLink(linking, linker);
      else if (offered.token.includes(chosen)) {
        const token = await readSecretLine(`${VENDOR_NAMES[chosen]} personal access token (not shown): `);
        linked = await linking.connectToken(chosen, token, linker);
      } else
        throw new StartupError(
          `${VENDOR_NAMES[chosen]} is linked in the browser on this server: open the console's Connected accounts page (or set the OAuth app's settings, docs/identity.md).`,
        );
      process.stdout.write(`Linked: ${describe(linked)}\n`);
    }),
  );

  withAs(accounts.command('disconnect <vendor>').description('forget your linked account (and revoke it at the vendor where the vendor offers that)')).action(
    async (vendor: string, options: AccountOptions) =>
      withLinking(cli, options, async (linking, linker) => {
        const chosen = vendorOf(vendor);
        const { removed, revoked } = await linking.disconnect(chosen, linker.principal);
        if (!removed) process.stdout.write(`No linked ${VENDOR_NAMES[chosen]} account for ${linker.principal}.\n`);
        else process.stdout.write(`Disconnected ${VENDOR_NAMES[chosen]}${revoked ? ' and revoked its authorization there' : ''}.\n`);
      }),
  );

  cli
    .withConfigOptions(
      accounts
        .command('rotate-key')
        .description(
          're-wrap every linked account with a new vault key: the old key from MCP_VAULT_KEY or MCP_VAULT_KEY_FILE, the new one from MCP_VAULT_NEW_KEY_FILE (or MCP_VAULT_NEW_KEY); stop the servers first',
        ),
    )
    .action(async (options: ConfigOptions) => {
      const settings = await cli.settings(options);
      const from = readVaultKey(settings.of(IdentitySettings));
      if (from === undefined) throw new StartupError('accounts rotate-key needs the current key in MCP_VAULT_KEY or MCP_VAULT_KEY_FILE.');
      const to = newKey();
      const store = await cli.openStore(settings);
      try {
        const report = await rotateVaultKey(store, from, to);
        process.stdout.write(
          `Vault key ${from.id} -> ${to.id}: ${report.rewrapped} re-wrapped, ${report.alreadyMoved} already moved, ${report.gone} gone, ${report.unreadable} unreadable. Start the servers with the new key.\n`,
        );
        if (report.unreadable > 0) process.exitCode = 1;
      } finally {
        await store.close();
      }
    });
}

/** Boots the server's kernel with these options (the vault opened as a server opens it) and hands over linking. */
async function withLinking(cli: CommandKit, options: AccountOptions, run: (linking: AccountLinking, linker: Linker) => Promise<void>): Promise<void> {
  const { kernel, close } = await cli.startKernel(options);
  try {
    if (String(kernel.settings.get('MCP_STORE_URL')).startsWith('memory:'))
      throw new StartupError(
        'Linked accounts are kept in the store the server reads: set MCP_STORE_URL to the same sqlite:// file or redis:// server as the server (memory:// would forget them when this command ends).',
      );
    let linking: AccountLinking;
    try {
      linking = kernel.resolve<AccountLinking>(IDENTITY_TOKENS.Linking);
    } catch {
      throw new StartupError('Linked accounts need the vault: set MCP_VAULT_KEY or MCP_VAULT_KEY_FILE (the same key as the server).');
    }
    await run(linking, { principal: options.as ?? 'local', session: `cli:${randomBytes(16).toString('hex')}` });
  } finally {
    await close();
  }
}

/** GitHub's device flow: the code is shown on stderr, the command polls until the person entered it. */
async function deviceLink(linking: AccountLinking, linker: Linker): Promise<LinkedAccountSummary> {
  const started = await linking.startDevice(linker);
  process.stderr.write(`Open ${started.verificationUri} and enter the code ${started.userCode} (valid until ${new Date(started.expiresAt).toISOString()}).\n`);
  let interval = started.intervalSeconds;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, interval * 1000));
    const outcome = await linking.pollDevice(started.attempt, linker, interval);
    if (!('pending' in outcome)) return outcome;
    interval = outcome.intervalSeconds;
  }
}

function newKey() {
  const file = process.env.MCP_VAULT_NEW_KEY_FILE;
  const inline = process.env.MCP_VAULT_NEW_KEY;
  if (file !== undefined && file !== '') {
    // Read as the vault key file is: the same parser, naming the setting, never repeating the value.
    return readVaultKey({ MCP_VAULT_KEY_FILE: file })!;
  }
  if (inline !== undefined && inline !== '') return parseVaultKey(inline, 'MCP_VAULT_NEW_KEY');
  throw new StartupError('accounts rotate-key needs the new key in MCP_VAULT_NEW_KEY_FILE (or MCP_VAULT_NEW_KEY): openssl rand -base64 32 makes one.');
}

function vendorOf(name: string): LinkVendor {
  if (!isLinkVendor(name)) throw new StartupError(`${JSON.stringify(name)} is not a vendor accounts are linked for; use one of ${LINK_VENDORS.join(', ')}.`);
  return name;
}

/** One line per account: never a token. */
function describe(a: LinkedAccountSummary): string {
  const parts = [`${VENDOR_NAMES[a.vendor]}: ${a.login}`];
  if (a.siteUrl) parts.push(`site ${a.siteUrl}`);
  if (a.scopes.length > 0) parts.push(`scopes ${a.scopes.join(' ')}`);
  parts.push(a.expiresAt === undefined ? 'does not expire' : `token until ${new Date(a.expiresAt).toISOString()}`);
  parts.push(`last used ${new Date(a.lastUsedAt).toISOString()}`);
  if (a.stale) parts.push(`STALE (${a.stale.reason}): link it again`);
  return parts.join(', ');
}
