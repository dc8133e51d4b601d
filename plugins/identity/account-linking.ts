import type { LinkVendor } from '../../core/identity/acting-identity.js';
import { LinkError } from '../../core/identity/link-error.js';
import type { LinkedAccountSummary } from '../../core/identity/linked-accounts.js';
import { SecretText } from '../../core/identity/secret-text.js';
import type { GithubDeviceFlow } from './flows/github-device-flow.js';
import type { RedirectFlow, TokenCheck } from './flows/link-flow.js';
import type { Arrival, LinkHandoffs } from './link-handoffs.js';
import type { Linker, LinkStates } from './link-states.js';
import type { TokenVault } from './token-vault.js';

export interface AccountLinkingOptions {
  vault: TokenVault;
  states: LinkStates;
  redirectFlows?: readonly RedirectFlow[];
  tokenChecks?: readonly TokenCheck[];
  githubDevice?: GithubDeviceFlow;
  /** Where the browser's callback hands the code over to the console (absent: browser callbacks are not finished here). */
  handoffs?: LinkHandoffs;
}

/** An authorization code as vendors issue them: printable ASCII, at most 2 KiB (anything else is not one). */
const CODE = /^[\x21-\x7e]{1,2048}$/;

/** A device-flow attempt as the person sees it; `attempt` is what they poll with (it is the link state). */
export interface DeviceLinkStart {
  attempt: string;
  userCode: string;
  verificationUri: string;
  expiresAt: number;
  intervalSeconds: number;
}

/**
 * Linking, for the console page, the CLI and elicitation to call: start a redirect flow (the vendor's URL),
 * finish it with the callback's code and state, link by device code (GitHub on a person's machine) or by a
 * personal access token, list and disconnect. Every link is bound to the principal and session that started
 * it; the vault keeps what results.
 */
export class AccountLinking {
  private readonly redirect = new Map<LinkVendor, RedirectFlow>();
  private readonly tokens = new Map<LinkVendor, TokenCheck>();

  constructor(private readonly options: AccountLinkingOptions) {
    for (const flow of options.redirectFlows ?? []) this.redirect.set(flow.vendor, flow);
    for (const check of options.tokenChecks ?? []) this.tokens.set(check.vendor, check);
  }

  /** Vendors linked through the browser, by personal access token, and by device code. */
  get vendors(): { redirect: LinkVendor[]; token: LinkVendor[]; device: LinkVendor[] } {
    return { redirect: [...this.redirect.keys()], token: [...this.tokens.keys()], device: this.options.githubDevice ? ['github'] : [] };
  }

  /** Step 1 of a browser link: the URL to send the person to. */
  async start(vendor: LinkVendor, linker: Linker): Promise<{ url: string; state: string }> {
    const flow = this.redirectFlow(vendor);
    const { state, verifier } = await this.options.states.begin(vendor, linker);
    return { url: await flow.authorizationUrl(state, verifier), state };
  }

  /** Step 2: the vendor sent the person back with `code` and `state`. */
  async callback(vendor: LinkVendor, code: string, state: string, linker: Linker): Promise<LinkedAccountSummary> {
    const flow = this.redirectFlow(vendor);
    await this.options.states.finish(vendor, state, linker);
    if (typeof code !== 'string' || code === '' || code.length > 2048) throw new LinkError('code_refused', vendor);
    const link = await flow.exchange(code, state, this.options.states.verifier(state));
    return this.options.vault.save(linker.principal, vendor, link);
  }

  /**
   * The browser came back to /identity/callback/<vendor> with `code` and `state`, and no one is known yet: checks
   * that the state is an attempt of this vendor still waiting (nothing is used up), keeps the code and state
   * sealed, and answers the one-time handle the console page finishes the link with (`finishArrival`).
   */
  async arrive(vendor: LinkVendor, code: string, state: string): Promise<string> {
    this.redirectFlow(vendor);
    if (this.options.handoffs === undefined) throw new LinkError('not_configured', vendor, { settings: 'browser callbacks need the console' });
    await this.options.states.expect(vendor, state);
    if (typeof code !== 'string' || !CODE.test(code)) throw new LinkError('code_refused', vendor);
    return this.options.handoffs.hand({ vendor, code, state });
  }

  /**
   * The console's last step: the arrival behind `handle` (used up), finished for `linker` as `callback` does, so
   * an attempt another principal or session started is refused. Undefined: no such handle (unknown, expired, used).
   */
  async finishArrival(handle: string, linker: Linker): Promise<LinkedAccountSummary | undefined> {
    const arrival: Arrival | undefined = await this.options.handoffs?.take(handle);
    if (arrival === undefined) return undefined;
    return this.callback(arrival.vendor, arrival.code, arrival.state, linker);
  }

  async startDevice(linker: Linker): Promise<DeviceLinkStart> {
    const device = this.deviceFlow();
    const started = await device.start();
    const { state } = await this.options.states.begin('github', linker, { deviceCode: started.deviceCode });
    return {
      attempt: state,
      userCode: started.userCode,
      verificationUri: started.verificationUri,
      expiresAt: started.expiresAt,
      intervalSeconds: started.intervalSeconds,
    };
  }

  /**
   * One poll of a device attempt: the link once the person entered the code, else `{pending}` with the seconds
   * to wait before the next poll (more when GitHub asks to slow down). The attempt is used up once linked.
   */
  async pollDevice(attempt: string, linker: Linker, intervalSeconds: number): Promise<LinkedAccountSummary | { pending: true; intervalSeconds: number }> {
    const device = this.deviceFlow();
    const secrets = await this.options.states.peek('github', attempt, linker);
    const outcome = await device.poll(secrets.deviceCode!, intervalSeconds);
    if ('pending' in outcome) return outcome;
    await this.options.states.finish('github', attempt, linker);
    return this.options.vault.save(linker.principal, 'github', outcome.linked);
  }

  /** Links by a personal access token the person typed: kept only once the vendor answered a read with it. */
  async connectToken(vendor: LinkVendor, token: string, linker: Linker): Promise<LinkedAccountSummary> {
    const check = this.tokens.get(vendor);
    if (check === undefined) throw new LinkError('not_configured', vendor, { settings: 'this vendor is not linked by personal access token here' });
    if (typeof token !== 'string' || token.trim() === '') throw new LinkError('token_refused', vendor, { vendorError: 'empty' });
    const link = await check.validate(new SecretText(token.trim()));
    return this.options.vault.save(linker.principal, vendor, link);
  }

  accounts(principal: string): Promise<LinkedAccountSummary[]> {
    return this.options.vault.accounts(principal);
  }

  /**
   * Forgets the link and revokes it at the vendor where the vendor offers that (GitHub). The link is gone
   * even if revocation fails; `revoked` says whether the vendor confirmed.
   */
  async disconnect(vendor: LinkVendor, principal: string): Promise<{ removed: boolean; revoked: boolean }> {
    const tokens = await this.options.vault.remove(principal, vendor);
    if (tokens === undefined) return { removed: false, revoked: false };
    const flow = this.redirect.get(vendor);
    if (flow?.revoke === undefined) return { removed: true, revoked: false };
    try {
      await flow.revoke(tokens);
      return { removed: true, revoked: true };
    } catch {
      return { removed: true, revoked: false };
    }
  }

  private redirectFlow(vendor: LinkVendor): RedirectFlow {
    const flow = this.redirect.get(vendor);
    if (flow === undefined) throw new LinkError('not_configured', vendor, { settings: 'no OAuth app is configured for it' });
    return flow;
  }

  private deviceFlow(): GithubDeviceFlow {
    if (this.options.githubDevice === undefined) throw new LinkError('not_configured', 'github', { settings: 'GITHUB_OAUTH_CLIENT_ID is not set' });
    return this.options.githubDevice;
  }
}
