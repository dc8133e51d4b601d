import { UpstreamClient, type UpstreamClientOptions } from '../../core/http/upstream-client.js';

/**
 * An upstream client for a CI-like vendor at `baseUrl`, for tests that drive the client directly rather than
 * through a tool: a Bearer token, a 5 s timeout, a 1 MiB cap and no retries unless `extra` says otherwise.
 */
export function ciClient(baseUrl: string, extra: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  return new UpstreamClient({
    vendor: 'ci',
    label: 'CI',
    baseUrl,
    auth: () => ({ authorization: 'Bearer ci-test-token' }),
    missingCredentials: 'Set CI_TOKEN.',
    secretMaterial: () => 'material',
    credentialLabel: 'ci-bot',
    environment: 'production',
    timeoutMs: 5000,
    maxBytes: 1024 * 1024,
    retries: 0,
    ...extra,
  });
}
