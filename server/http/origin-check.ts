import { BlockList, isIP } from 'node:net';

/** 127.0.0.0/8 and ::1; IPv4-mapped IPv6 forms (`::ffff:127.0.0.1`) are checked as the IPv4 address. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Browsers send `Origin`; a page on another site must not drive a local server (DNS rebinding). Requests
 * without `Origin` (non-browser clients) pass; loopback origins pass; others only when configured
 * (MCP_HTTP_ALLOWED_ORIGINS, compared as origins: scheme, host and port). The host is parsed, never matched
 * by prefix: `http://localhost.evil.example` and `http://127.0.0.1.nip.io` are not loopback.
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined || origin === '') return true;
  if (allowed.includes(origin) || allowed.includes('*')) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (allowed.some((entry) => originOf(entry) === url.origin)) return true;
  return /^https?:$/.test(url.protocol) && isLoopbackHost(url.hostname);
}

/**
 * True for `localhost` and for an address in 127.0.0.0/8 or ::1 (bracketed or not), parsed as an address:
 * a name that merely starts like one (`127.evil.example`) is not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

function originOf(entry: string): string | undefined {
  try {
    return new URL(entry).origin;
  } catch {
    return undefined;
  }
}
