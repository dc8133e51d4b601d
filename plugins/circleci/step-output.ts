import type { Settings } from '../../core/config/settings.js';
import { ToolError } from '../../core/errors/tool-error.js';
import { UpstreamClient } from '../../core/http/upstream-client.js';
import { transportLimitsFrom } from '../../core/http/vendor-settings.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { CircleciSettings } from './circleci-client.js';

/**
 * Reads the output of step actions from the URLs CircleCI's job detail gives (signed URLs on a storage host,
 * another origin than the API). They are fetched WITHOUT the CircleCI token: the signature is the credential,
 * and the token must never leave CircleCI's origin. One credential-less client per output host.
 */
export class StepOutputReader {
  private readonly clients = new Map<string, UpstreamClient>();

  constructor(
    private readonly settings: Settings,
    private readonly environment: string,
  ) {}

  /** The text of one action's output: its messages (`[{type, time, message}]`) joined in order. */
  async read(ctx: ToolContext, outputUrl: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(outputUrl);
    } catch {
      throw new ToolError('upstream_invalid_body', `CircleCI gave an output URL that is not a URL: ${JSON.stringify(outputUrl.slice(0, 200))}.`);
    }
    if (!/^https?:$/.test(url.protocol)) throw new ToolError('upstream_invalid_body', `CircleCI gave an output URL that is not http(s): ${url.protocol}`);
    const response = await this.clientFor(url.origin).send(ctx, { method: 'GET', path: `${url.pathname}${url.search}` });
    if (!Array.isArray(response.body)) throw new ToolError('upstream_invalid_body', 'The step output is not the JSON list of messages CircleCI serves.');
    return response.body.map((item) => (typeof (item as { message?: unknown })?.message === 'string' ? (item as { message: string }).message : '')).join('');
  }

  private clientFor(origin: string): UpstreamClient {
    let client = this.clients.get(origin);
    if (client === undefined) {
      if (this.clients.size >= 8) this.clients.clear(); // CircleCI uses one or two hosts; never grow without end
      client = new UpstreamClient({
        vendor: 'circleci',
        label: 'CircleCI step output',
        baseUrl: origin,
        // Where the output lives is CircleCI's word, not the operator's: held to the egress guard.
        foreignOf: this.settings.of(CircleciSettings).CIRCLECI_BASE_URL,
        auth: () => ({}),
        missingCredentials: '',
        secretMaterial: () => '',
        credentialLabel: 'signed URL',
        environment: this.environment,
        headers: { accept: 'application/json', 'user-agent': `${SERVER_NAME}/${VERSION}` },
        expect: 'json',
        ...transportLimitsFrom(this.settings),
      });
      this.clients.set(origin, client);
    }
    return client;
  }
}
