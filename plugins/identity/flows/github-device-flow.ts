import { LinkError } from '../../../core/identity/link-error.js';
import type { NewLink } from '../vault-record.js';
import { githubFailure, githubRequest, GithubFlow, type GithubAppOptions, type TokenAnswer } from './github-flow.js';

/** What the person is shown: where to go and the code to type there. */
export interface DeviceCodeStart {
  userCode: string;
  verificationUri: string;
  /** Epoch ms after which the code no longer works. */
  expiresAt: number;
  /** Seconds to wait between two polls (GitHub raises it with `slow_down`). */
  intervalSeconds: number;
  /** Secret of the attempt: kept server-side only (sealed in the link state), never shown. */
  deviceCode: string;
}

/** The outcome of one poll: a link, or wait `intervalSeconds` and poll again. */
export type DevicePoll = { linked: NewLink } | { pending: true; intervalSeconds: number };

/**
 * GitHub's device flow for a server on the person's own machine (stdio: no browser redirect can reach it):
 * the person opens github.com/login/device (or the Enterprise Server's) and types the code; the server polls
 * the token endpoint, honouring `authorization_pending` and `slow_down` as GitHub documents them. Through
 * @octokit/oauth-methods, like the web flow.
 */
export class GithubDeviceFlow {
  readonly vendor = 'github' as const;
  private readonly web: GithubFlow;
  private readonly apiUrl: string;

  constructor(private readonly app: GithubAppOptions) {
    this.web = new GithubFlow(app);
    this.apiUrl = (app.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  }

  async start(now = Date.now()): Promise<DeviceCodeStart> {
    const { createDeviceCode } = await import('@octokit/oauth-methods');
    try {
      const { data } = await createDeviceCode({
        clientType: this.app.clientType as 'oauth-app',
        clientId: this.app.clientId,
        ...(this.app.clientType === 'oauth-app' ? { scopes: [...this.app.scopes] } : {}),
        request: await githubRequest(this.apiUrl),
      });
      return {
        userCode: data.user_code,
        verificationUri: data.verification_uri,
        expiresAt: now + data.expires_in * 1000,
        intervalSeconds: data.interval,
        deviceCode: data.device_code,
      };
    } catch (error) {
      throw githubFailure(error, 'vendor_unreachable');
    }
  }

  /** One poll of the token endpoint with the device code. */
  async poll(deviceCode: string, intervalSeconds: number): Promise<DevicePoll> {
    const { exchangeDeviceCode } = await import('@octokit/oauth-methods');
    let answer;
    try {
      answer = await exchangeDeviceCode({
        clientType: this.app.clientType as 'oauth-app',
        clientId: this.app.clientId,
        code: deviceCode,
        request: await githubRequest(this.apiUrl),
      });
    } catch (error) {
      const data = (error as { response?: { data?: { error?: string; interval?: number } } }).response?.data;
      if (data?.error === 'authorization_pending') return { pending: true, intervalSeconds };
      // slow_down: GitHub adds 5 s to the interval and says the new one; keep to it from now on.
      if (data?.error === 'slow_down') return { pending: true, intervalSeconds: typeof data.interval === 'number' ? data.interval : intervalSeconds + 5 };
      throw githubFailure(error, 'code_refused');
    }
    return { linked: await this.web.linkOf(answer.data as unknown as TokenAnswer) };
  }

  /** Polls until the person has entered the code, it expires, or `signal` aborts (the CLI's `accounts connect github`). */
  async wait(start: DeviceCodeStart, signal?: AbortSignal, now: () => number = Date.now): Promise<NewLink> {
    let interval = start.intervalSeconds;
    for (;;) {
      await new Promise<void>((resolve, reject) => {
        const stop = () => {
          clearTimeout(timer);
          reject(new LinkError('state_unknown', 'github'));
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', stop);
          resolve();
        }, interval * 1000);
        if (signal?.aborted) stop();
        else signal?.addEventListener('abort', stop, { once: true });
      });
      if (now() >= start.expiresAt) throw new LinkError('state_unknown', 'github');
      const outcome = await this.poll(start.deviceCode, interval);
      if ('linked' in outcome) return outcome.linked;
      interval = outcome.intervalSeconds;
    }
  }
}
