import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { BootContext, DevtoolsPlugin } from '../../core/plugin/contract.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import { IdentitySettings } from './identity-settings.js';
import { actingAccount } from './acting-account.js';
import type { VendorLocations } from './linking-from-settings.js';
import type { TokenVault } from './token-vault.js';
import { CREDENTIAL_SETTINGS, IDENTITY_TOKENS, LinkPlaces } from './identity-tokens.js';
import { IDENTITY_CONTRIBUTIONS } from './contributions.js';

// Types only besides the settings and tokens: the vault, the flows and the linking are imported by boot() when
// a vault key is set (and by the routes, commands and page when mounted), so that a server without one never
// loads them; a value re-exported here would put them on every start.
export { IdentitySettings, type IdentitySettingValues } from './identity-settings.js';
export type { AccountLinking, DeviceLinkStart } from './account-linking.js';
export type { LinkStates, Linker } from './link-states.js';
export type { TokenVault, TokenVaultOptions } from './token-vault.js';
export type { RotationReport } from './rotate-key.js';
export type { VaultKey } from './vault-key.js';
export { IDENTITY_TOKENS, LinkPlaces } from './identity-tokens.js';
export type { VendorLocations, IdentityFlows } from './linking-from-settings.js';

const DAY_MS = 86_400_000;

/**
 * Linked accounts (issue 51): each caller acting upstream with their own vendor account. This plugin holds the
 * vault: with a vault key set it opens the vault on the shared store at start-up (refusing, in one sentence,
 * a key that did not seal the records already there) and provides it as TOKENS.LinkedAccounts. Without a key
 * it does nothing. Linking itself (console page, CLI, callbacks) is mounted by the server from this index.
 */
@Plugin({ name: 'identity', version: '1.0.0', settings: IdentitySettings, contributes: IDENTITY_CONTRIBUTIONS })
export class IdentityPlugin implements DevtoolsPlugin {
  private vault: TokenVault | undefined;
  private readonly places = new LinkPlaces();

  constructor(
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Store) private readonly store: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {}

  async boot(ctx: BootContext): Promise<void> {
    const own = this.settings.of(IdentitySettings);
    const { readVaultKey } = await import('./vault-key.js');
    const key = readVaultKey(own);
    if (key === undefined) {
      const wanting = CREDENTIAL_SETTINGS.filter((name) => this.settings.has(name) && this.settings.get(name) !== 'service');
      if (wanting.length > 0)
        throw new StartupError(
          `${wanting.map((name) => `${name}=${String(this.settings.get(name))}`).join(' and ')} acts with people's linked accounts, which need the vault: set MCP_VAULT_KEY or MCP_VAULT_KEY_FILE (openssl rand -base64 32 makes a key).`,
        );
      return;
    }
    const [{ TokenVault }, { identityFlows, refreshersOf }, { AccountLinking }, { LinkStates }, { LinkHandoffs }] = await Promise.all([
      import('./token-vault.js'),
      import('./linking-from-settings.js'),
      import('./account-linking.js'),
      import('./link-states.js'),
      import('./link-handoffs.js'),
    ]);
    const flows = identityFlows(own, { ...this.vendorLocations(), ...(await this.renewals()) });
    this.vault = await TokenVault.open({
      store: this.store,
      key,
      clock: this.clock,
      refreshers: refreshersOf(flows),
      idleMs: own.MCP_VAULT_IDLE_DAYS * DAY_MS,
    });
    ctx.provide(TOKENS.LinkedAccounts, this.vault);
    // The console's page, once the console runs where browsers reach it (its factory corrects this when mounted).
    const read = (key: string): unknown => (this.settings.has(key) ? this.settings.get(key) : undefined);
    if (read('MCP_CONSOLE') === true && typeof read('MCP_CONSOLE_PUBLIC_URL') === 'string' && read('MCP_CONSOLE_PUBLIC_URL') !== '')
      this.places.consoleUrl = String(read('MCP_CONSOLE_PUBLIC_URL'));
    ctx.provide(IDENTITY_TOKENS.Places, this.places);
    ctx.provide(
      IDENTITY_TOKENS.Linking,
      new AccountLinking({ vault: this.vault, states: new LinkStates(this.store, key, this.clock), handoffs: new LinkHandoffs(this.store, key), ...flows }),
    );
  }

  middleware(): StageMiddleware[] {
    if (this.vault === undefined) return [];
    const places = this.places;
    return [
      actingAccount(
        this.vault,
        (vendor) => places.where(vendor),
        () => places.page(),
      ),
    ];
  }

  /** The vault, once booted with a key (the server's linking routes and commands use it). */
  get linkedAccounts(): TokenVault | undefined {
    return this.vault;
  }

  /** The vendor plugins' base URLs, where those plugins are loaded (their settings are declared by them), and this server's address. */
  /**
   * Token renewals go through the rate-limit governor, a budget of their own per token endpoint and OAuth client
   * (flows/renewal-limits.ts), under the same settings as every upstream request; none when it is turned off.
   */
  private async renewals(): Promise<Pick<VendorLocations, 'renewals'>> {
    const read = (key: string): unknown => (this.settings.has(key) ? this.settings.get(key) : undefined);
    if (read('MCP_RATE_LIMIT_GOVERNOR') === false) return {};
    const [{ RateGovernor }, { renewalFetch }] = await Promise.all([import('../../core/http/rate-governor.js'), import('./flows/renewal-limits.js')]);
    const governor = new RateGovernor({
      store: this.store,
      logger: this.logger.child({ component: 'rate-limits' }),
      metrics: this.metrics,
      maxWaitMs: Number(read('MCP_RATE_LIMIT_MAX_WAIT_SECONDS') ?? 30) * 1000,
      pacePercent: Number(read('MCP_RATE_LIMIT_PACE_PERCENT') ?? 10),
    });
    return { renewals: (vendor, clientId) => renewalFetch(governor, vendor, clientId) };
  }

  private vendorLocations(): VendorLocations {
    const read = (key: string): string | undefined => (this.settings.has(key) ? String(this.settings.get(key) ?? '') || undefined : undefined);
    const at: VendorLocations = { publicUrl: read('MCP_CONSOLE_PUBLIC_URL') ?? '' };
    const githubApiUrl = read('GITHUB_API_URL');
    if (githubApiUrl !== undefined) at.githubApiUrl = githubApiUrl;
    if (read('ATLASSIAN_SITE_NAME')) at.atlassianSite = read('ATLASSIAN_SITE_NAME');
    if (read('ATLASSIAN_API_GATEWAY_URL')) at.atlassianApiUrl = read('ATLASSIAN_API_GATEWAY_URL');
    if (read('CIRCLECI_BASE_URL')) at.circleciUrl = read('CIRCLECI_BASE_URL');
    return at;
  }
}
