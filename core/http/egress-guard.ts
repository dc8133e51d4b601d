import { BlockList, isIP } from 'node:net';
import { StartupError } from '../errors/tool-error.js';

/**
 * The one egress guard: what a request to a URL the server did not build from a vendor's base URL may reach (a
 * storage URL a vendor hands out, a redirect to another origin). Such a URL is the upstream's word, and an
 * upstream that is wrong or hostile must not turn the server into a way into its own network: https only (http
 * only when the vendor's own base URL is http), and never an address of the host or of the private network
 * unless the operator allows it (MCP_EGRESS_ALLOW) or it is the vendor's own configured host. The address is
 * judged where the connection is made (see egress-connector.ts), on what DNS answered for that connection.
 */

/** Why an address is refused, most specific first: a metadata address is link-local too, but says more. */
const REFUSED_RANGES: ReadonlyArray<readonly [kind: string, cidrs: readonly string[]]> = [
  ['a cloud metadata', ['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32', 'fd00:ec2::254/128']],
  ['an unspecified', ['0.0.0.0/8', '::/128']],
  ['a loopback', ['127.0.0.0/8', '::1/128']],
  ['a private (RFC 1918)', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['a shared (CGNAT)', ['100.64.0.0/10']],
  ['a link-local', ['169.254.0.0/16', 'fe80::/10']],
  ['a unique-local', ['fc00::/7', 'fec0::/10']],
  ['a multicast', ['224.0.0.0/4', 'ff00::/8']],
  ['a reserved', ['192.0.0.0/24', '198.18.0.0/15', '240.0.0.0/4', '::/96', '100::/64']],
];

/** IPv4 ranges are also refused as NAT64 addresses (64:ff9b::/96), which a NAT64 gateway turns back into them. */
const NAT64_PREFIX = '64:ff9b::';

/**
 * The refused ranges as lists Node checks addresses against. Built by the first check, not at start: most
 * servers never follow a URL an upstream hands out, and the lists cost milliseconds of every start otherwise.
 */
let refusedLists: ReadonlyArray<{ kind: string; list: BlockList }> | undefined;

function refusedRanges(): ReadonlyArray<{ kind: string; list: BlockList }> {
  refusedLists ??= REFUSED_RANGES.map(([kind, cidrs]) => {
    const list = new BlockList();
    for (const cidr of cidrs) {
      const [address = '', bits = ''] = cidr.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      list.addSubnet(address, Number(bits), family);
      if (family === 'ipv4') list.addSubnet(nat64(address), 96 + Number(bits), 'ipv6');
    }
    return { kind, list };
  });
  return refusedLists;
}

/** What MCP_EGRESS_ALLOW names: hosts (any port, or one), and CIDR ranges. */
export interface EgressAllowList {
  readonly hosts: ReadonlyArray<{ host: string; port?: number }>;
  readonly ranges: BlockList;
}

export const NO_EGRESS_ALLOWANCE: EgressAllowList = Object.freeze({ hosts: [], ranges: new BlockList() });

/**
 * MCP_EGRESS_ALLOW: comma-separated hosts (`storage.internal`, `10.0.0.5`, `[fd00::5]`), `host:port` pairs
 * (`127.0.0.1:9000`) and CIDR ranges (`10.20.0.0/16`, `fd00::/8`). A mistake stops the start, naming it.
 */
export function parseEgressAllow(value: string, setting = 'MCP_EGRESS_ALLOW'): EgressAllowList {
  const hosts: Array<{ host: string; port?: number }> = [];
  const ranges = new BlockList();
  const refuse = (entry: string): never => {
    throw new StartupError(
      `${setting}: ${JSON.stringify(entry)} is not a host, host:port pair or CIDR range; write them comma-separated, such as storage.internal, 127.0.0.1:9000, 10.20.0.0/16.`,
    );
  };
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const cidr = /^\[?([0-9A-Fa-f:.]+)\]?\/(\d{1,3})$/.exec(entry);
    if (cidr !== null) {
      const family = isIP(cidr[1]!);
      const bits = Number(cidr[2]);
      if (family === 0 || bits > (family === 4 ? 32 : 128)) refuse(entry);
      ranges.addSubnet(cidr[1]!, bits, family === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    const withPort = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(entry);
    const host = canonicalHost(withPort?.[1] ?? entry);
    const port = withPort === null ? undefined : Number(withPort[2]);
    if (host === undefined || (port !== undefined && (port < 1 || port > 65535))) refuse(entry);
    hosts.push(port === undefined ? { host: host! } : { host: host!, port });
  }
  return { hosts, ranges };
}

/** An address refusal, with what the operator can do about it. */
export function withAllowHint(refusal: string): string {
  return `${refusal}. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW`;
}

/** Why connecting to `address` is refused: raised where the connection is made, so no retry or fallback follows. */
export class EgressRefused extends Error {
  readonly code = 'ERR_EGRESS_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'EgressRefused';
  }
}

/** The first EgressRefused down an error's cause chain (undici may wrap what the connector raised). */
export function egressRefusalIn(error: unknown): EgressRefused | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 6; depth++) {
    if (e instanceof EgressRefused) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The guard of one client's foreign requests: `vendorBase` is the vendor's own base URL, whose scheme decides
 * whether http may be used and whose host may be reached whatever its address.
 */
export class EgressGuard {
  private readonly baseHost: string;
  private readonly basePort: number;

  constructor(
    private readonly vendorBase: URL,
    private readonly allow: EgressAllowList,
  ) {
    this.baseHost = canonicalHost(vendorBase.hostname) ?? vendorBase.hostname;
    this.basePort = portOf(vendorBase);
  }

  /**
   * Why `url` may not be fetched, judged before anything is sent: its scheme, and an address written in it (a
   * sentence without its final stop). A name is judged when it is resolved, by the connection (addressRefusal).
   */
  refusalOf(url: URL): string | undefined {
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.vendorBase.protocol === 'http:')) {
      const allowed = this.vendorBase.protocol === 'http:' ? 'https or http' : 'https only (http only when the vendor is configured with an http base URL)';
      return `its scheme is ${url.protocol.replace(/:$/, '')}, and a URL an upstream hands out is fetched over ${allowed}`;
    }
    const host = canonicalHost(url.hostname);
    const refused = host !== undefined && isIP(host) !== 0 ? this.addressRefusal(host, portOf(url), host) : undefined;
    return refused === undefined ? undefined : withAllowHint(refused);
  }

  /** Why connecting to `address` (what `hostname` resolved to, or the address itself) on `port` is refused. */
  addressRefusal(hostname: string, port: number, address: string): string | undefined {
    const host = canonicalHost(hostname) ?? hostname;
    const ip = canonicalHost(address) ?? address;
    if (this.allows(host, port, ip)) return undefined;
    const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    const refusedRange = refusedRanges().find(({ list }) => list.check(ip, family));
    if (refusedRange === undefined) return undefined;
    const what = host === ip ? ip : `${host} resolves to ${ip}, which`;
    return `${what} is ${refusedRange.kind} address`;
  }

  private allows(host: string, port: number, ip: string): boolean {
    if (host === this.baseHost && port === this.basePort) return true;
    for (const entry of this.allow.hosts) {
      if ((entry.host === host || entry.host === ip) && (entry.port === undefined || entry.port === port)) return true;
    }
    return this.allow.ranges.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
  }
}

/** A URL's port, its scheme's default when it names none. */
export function portOf(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * A host as URLs and DNS answers write it, so that the two compare equal: lower case, IPv6 without brackets in
 * its shortest form, IPv4 in dotted decimal. Undefined for what is not a host name or address.
 */
function canonicalHost(host: string): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // A zone (fe80::1%eth0) names the interface, not another address: the address alone is judged.
  if (isIP(bare) === 6) return new URL(`http://[${bare.split('%', 1)[0]}]/`).hostname.slice(1, -1);
  if (!/^[A-Za-z0-9.-]+$/.test(bare) || bare.startsWith('.') || bare.includes('..')) return undefined;
  try {
    return new URL(`http://${bare}/`).hostname;
  } catch {
    return undefined;
  }
}

/** The NAT64 address (64:ff9b::a.b.c.d) of an IPv4 address. */
function nat64(ipv4: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  return `${NAT64_PREFIX}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
