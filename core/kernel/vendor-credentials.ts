import type { UpstreamBinding } from '../plugin/upstream-types.js';

/** A loaded plugin as the default selection weighs it: its name and the upstream client it calls, if any. */
export interface CredentialedPlugin {
  readonly name: string;
  readonly upstream?: UpstreamBinding;
  /** A plugin with clients of its own (DevtoolsPlugin.hasCredentials). */
  readonly hasCredentials?: () => boolean;
}

/**
 * Why each vendor plugin's tools would only fail, keyed by plugin: no service credential configured (its client
 * would answer every request with `missing_credentials`; a client that needs none is configured) and no `<VENDOR>_CREDENTIALS` mode that acts with a person's linked account. Plugins without an
 * upstream client (artifacts, projection) are not vendors and never listed. The default tools leave these out
 * (ToolSelection): with only GITHUB_TOKEN set, a new user is not served thirty Jira, Confluence, Bitbucket and
 * CircleCI tools that can only answer `missing_credentials`.
 */
export function vendorsWithoutCredentials(plugins: readonly CredentialedPlugin[]): Map<string, string> {
  const without = new Map<string, string>();
  for (const { name, upstream, hasCredentials } of plugins) {
    if (hasCredentials !== undefined) {
      if (!hasCredentials()) without.set(name, 'no credentials configured');
      continue;
    }
    if (upstream?.hasCredentials === undefined) continue;
    const linked = upstream.linking !== undefined && upstream.linking.mode !== 'service';
    if (linked || upstream.hasCredentials()) continue;
    without.set(name, 'no credentials configured');
  }
  return without;
}
