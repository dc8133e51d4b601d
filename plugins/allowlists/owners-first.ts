import { ToolError } from '../../core/errors/tool-error.js';
import type { InterceptContext, UpstreamInterceptor } from '../../core/plugin/tool-context.js';
import type { Allowlist } from '../resource-names/allowlist.js';
import type { ListedVendor } from '../resource-names/named-resources.js';
import { RESOURCE, type Allowlists } from './allowlist-gate.js';
import { ownerLookup, type OwnerLookup } from './owner-lookups.js';

/** How long what a pipeline, workflow or page belongs to is remembered: it never changes for a pipeline; a page may move. */
const REMEMBERED_MS = 10 * 60_000;
/** The most owners remembered (the oldest go first). */
const MOST_REMEMBERED = 2000;
/** Reads one request's owner may take: a v2 page, then its space. */
const MOST_READS = 3;

/**
 * Decides a request by id whose path names no resource, before it is sent (owner-lookups.ts): the resource it
 * belongs to is read first (remembered per vendor and credential), and a request off the list is refused with
 * nothing sent. So a CircleCI pipeline's config, a workflow's rerun or a Confluence page's update by id are held
 * to the list like a request that names its project or space.
 */
export class OwnersFirst {
  private readonly owners = new Map<string, { name: string; until: number }>();

  constructor(private readonly lists: Allowlists) {}

  interceptor(): UpstreamInterceptor {
    return {
      name: 'owners-first',
      after: ['kernel/request-gate'],
      run: async (request, exchange, next) => {
        const vendor = exchange.identity.vendor as ListedVendor;
        const list = this.lists[vendor];
        const lookup = list === undefined ? undefined : ownerLookup(vendor, request);
        if (list !== undefined && lookup !== undefined) {
          const owner = await this.ownerOf(lookup, exchange);
          const what = `${exchange.tool.toolName} (${request.method} ${request.path.split('?', 1)[0]})`;
          if (owner === undefined)
            throw refused(
              list,
              `${what} addresses ${lookup.what}, whose ${RESOURCE[vendor]} could not be read, so ${list.setting} cannot decide it; nothing was sent.`,
            );
          if (!list.allows(owner))
            throw refused(
              list,
              `${what} addresses ${lookup.what} of the ${RESOURCE[vendor]} ${owner}, which ${list.setting} (${list.patterns.join(',')}) does not allow: add ${owner} to ${list.setting} to allow it; nothing was sent.`,
              owner,
            );
        }
        return next();
      },
    };
  }

  /** The resource `lookup` names, remembered or read (a further read when the first names it by id). */
  private async ownerOf(lookup: OwnerLookup, exchange: InterceptContext): Promise<string | undefined> {
    const scope = `${exchange.identity.vendor}\0${exchange.identity.fingerprint}\0`;
    const now = Date.now();
    const known = this.owners.get(scope + lookup.key);
    if (known !== undefined && known.until > now) return known.name;
    let current: OwnerLookup = lookup;
    for (let reads = 0; reads < MOST_READS; reads++) {
      const response = await exchange.lookup(current.path);
      const named = current.nameOf(response.body);
      if (typeof named === 'string') {
        this.remember(scope + lookup.key, named, now);
        return named;
      }
      if (named === undefined) return undefined;
      current = named;
    }
    return undefined;
  }

  private remember(key: string, name: string, now: number): void {
    this.owners.delete(key);
    this.owners.set(key, { name, until: now + REMEMBERED_MS });
    if (this.owners.size > MOST_REMEMBERED) this.owners.delete(this.owners.keys().next().value!);
  }
}

function refused(list: Allowlist, message: string, value?: string): ToolError {
  return new ToolError('policy_denied', message, {
    meta: { code: 'policy_denied', allowlist: { setting: list.setting, ...(value === undefined ? {} : { value }) } },
  });
}
