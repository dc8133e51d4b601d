import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { EgressRefused, withAllowHint, type EgressGuard } from './egress-guard.js';

/**
 * Where the egress guard holds: in the connection itself. Each connection of a guarded pool resolves its host
 * with a lookup that judges every address DNS answered before the socket may use one, and connects to one of
 * those very addresses; an address written in the URL is judged before it is dialled. So a name that resolves
 * to a public address when checked and to 127.0.0.1 a moment later (DNS rebinding) gets nowhere: there is no
 * check apart from the connection to race. The refusal is an error of the connection, before any byte is sent:
 * the same whether anything listens there or not, so a refused URL cannot tell an open port from a closed one.
 */

/** One pool per guard (a client's foreign requests), so what one client may reach never lends to another's. */
const pools = new WeakMap<EgressGuard, Agent>();

/** How a name is resolved to every address DNS answers: dns.lookup with `all`, or a test's own resolver. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/** The pool of a guard's connections; `resolve` is used by the pool this call creates (a guard's first). */
export function guardedPool(guard: EgressGuard, options: ConstructorParameters<typeof Agent>[0], resolve: ResolveAll = systemResolver): Agent {
  let pool = pools.get(guard);
  if (pool === undefined) pools.set(guard, (pool = new Agent({ ...options, connect: guardedConnector(guard, resolve) })));
  return pool;
}

function guardedConnector(guard: EgressGuard, resolve: ResolveAll): buildConnector.connector {
  // The lookup must know the port (an allowance may name one): one connector per port, each with its lookup.
  const byPort = new Map<number, buildConnector.connector>();
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    if (isIP(options.hostname) !== 0) {
      const refusal = guard.addressRefusal(options.hostname, port, options.hostname);
      if (refusal !== undefined) {
        process.nextTick(callback, new EgressRefused(withAllowHint(refusal)), null);
        return;
      }
    }
    let connect = byPort.get(port);
    if (connect === undefined) byPort.set(port, (connect = buildConnector({ lookup: guardedLookup(guard, port, resolve) })));
    connect(options, callback);
  };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, every answer judged: one refused address refuses the name (a name that mixes them is not trusted). */
export function guardedLookup(guard: EgressGuard, port: number, resolve: ResolveAll = systemResolver) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const refusal = guard.addressRefusal(hostname, port, address);
        if (refusal !== undefined) return callback(new EgressRefused(withAllowHint(refusal)), []);
      }
      if (options.all === true) return callback(null, addresses);
      const [first] = addresses;
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
