import { nodeCrypto } from '../node-crypto.js';
import { StartupError } from '../errors/tool-error.js';
import type { UpstreamIdentity } from '../plugin/upstream-types.js';
import { EgressGuard, NO_EGRESS_ALLOWANCE } from './egress-guard.js';
import type { UpstreamClientOptions } from './upstream-options.js';

/**
 * What every part of the upstream client reads about the vendor it talks to: the options as the plugin gave
 * them, the base URL parsed once, the API prefix the base URL holds, the egress guard of its foreign requests
 * and the identity its requests go out as.
 */
export interface UpstreamSite {
  readonly options: UpstreamClientOptions;
  readonly base: URL;
  /** The base URL of the GraphQL endpoint (`graphqlBaseUrl`), when it is not `base`. */
  readonly graphqlBase: URL | undefined;
  /** `apiPrefix` when the base URL ends with it: put before each path policy rules see. */
  readonly prefixInBase: string;
  /** What a foreign request of this client may reach (the egress guard, see egress-guard.ts). */
  readonly egress: EgressGuard;
  readonly identity: UpstreamIdentity;
}

/** The site of a client's options; a base URL that is not a usable http(s) URL stops the start with a sentence. */
export function upstreamSite(options: UpstreamClientOptions): UpstreamSite {
  const base = parseBaseUrl(options.baseUrl, options.label, options.baseUrlSetting);
  const prefix = options.apiPrefix?.replace(/\/+$/, '') ?? '';
  const prefixInBase = prefix !== '' && base.pathname.replace(/\/+$/, '').endsWith(prefix) ? prefix : '';
  const graphqlBase = options.graphqlBaseUrl === undefined ? undefined : parseBaseUrl(options.graphqlBaseUrl, options.label, options.baseUrlSetting);
  if (graphqlBase !== undefined && graphqlBase.origin !== base.origin)
    throw new StartupError(`The ${options.label} GraphQL base URL must be on ${base.origin}, the API's origin.`);
  const vendorBase = options.foreignOf === undefined ? base : parseBaseUrl(options.foreignOf, options.label, undefined);
  // Built by the first foreign request or redirect that asks, not by every start for every vendor's clients
  // (most are never asked): its URL is checked above, and building the guard itself cannot fail.
  let egress: EgressGuard | undefined;
  // Hashed when first read (by the first call that keys shared state), not by every start for every vendor:
  // hashing loads node:crypto.
  const material = `${options.vendor}\0${base.href}\0${options.secretMaterial()}`;
  let fingerprint: string | undefined;
  const identity: UpstreamIdentity = Object.freeze({
    vendor: options.vendor,
    credential: options.credentialLabel,
    host: base.host,
    environment: options.environment,
    get fingerprint(): string {
      return (fingerprint ??= nodeCrypto().createHash('sha256').update(material).digest('hex').slice(0, 32));
    },
  });
  return {
    options,
    base,
    graphqlBase,
    prefixInBase,
    get egress(): EgressGuard {
      return (egress ??= new EgressGuard(vendorBase, options.egressAllow ?? NO_EGRESS_ALLOWANCE));
    },
    identity,
  };
}

function parseBaseUrl(value: string, label: string, setting: string | undefined): URL {
  const given = setting === undefined ? `The ${label} base URL ${JSON.stringify(value)}` : `${setting}=${JSON.stringify(value)}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StartupError(`${given} is not a URL: give the ${label} API's base URL with its scheme, such as https://host.example.com.`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new StartupError(`${given} must be an http:// or https:// URL, not ${url.protocol}`);
  url.search = '';
  url.hash = '';
  return url;
}
