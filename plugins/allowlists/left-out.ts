import type { Call, Produced } from '../../core/plugin/call.js';
import type { PreparedRequest } from '../../core/plugin/upstream-types.js';
import type { UpstreamInterceptor } from '../../core/plugin/tool-context.js';
import type { ToolSpec } from '../../core/plugin/tool-spec.js';
import type { Allowlists } from './allowlist-gate.js';
import type { ListedVendor } from '../resource-names/named-resources.js';
import { allowedBody, newTally, undecidedPages, type CallTally } from './result-filter.js';

/** The `_meta` key of a result some of whose items were left out (docs/policy.md#allowlists). */
export const ALLOWLIST_META_KEY = 'mcp-devtools/allowlist';

/** What a result says of the items left out of it: beside `data` (text and structured value) and in `_meta`. */
export interface LeftOutNote {
  leftOut: number;
  settings: string[];
  note: string;
}

/**
 * The tallies of the calls in flight, by the call's prepared request: the one object both the interceptor
 * (which sees the handler's context) and the stages after the handler (which see the call) hold.
 */
export class LeftOutItems {
  private readonly tallies = new WeakMap<PreparedRequest, CallTally>();

  constructor(private readonly lists: Allowlists) {}

  /**
   * Reads every JSON response a tool's handler gets, before the handler does: items off the list are left out
   * of a listing and counted, a single resource off it is refused. Outside the HTTP cache, so a cached page is
   * filtered on each read and the cache keeps the vendor's body.
   */
  interceptor(): UpstreamInterceptor {
    return {
      name: 'allowed-results',
      after: ['kernel/request-gate'],
      run: async (request, exchange, next) => {
        const response = await next();
        const vendor = exchange.identity.vendor as ListedVendor;
        const list = this.lists[vendor];
        if (list === undefined || response.kind !== 'json') return response;
        const prepared = exchange.tool.prepared;
        let tally: CallTally | undefined;
        if (prepared !== undefined) {
          tally = this.tallies.get(prepared);
          if (tally === undefined) this.tallies.set(prepared, (tally = newTally()));
        }
        const body = allowedBody(list, vendor, { tool: exchange.tool.toolName, request }, response.body, tally);
        return body === response.body ? response : { ...response, body, text: JSON.stringify(body) };
      },
    };
  }

  /**
   * After the handler, before anything is rendered or saved: a page whose space was never decided refuses the
   * call; items left out are said beside `data` (when the envelope has room) and in `_meta`.
   */
  noted(call: Call, produced: Produced): Produced {
    const tally = call.prepared === undefined ? undefined : this.tallies.get(call.prepared);
    if (tally === undefined) return produced;
    const confluence = this.lists.confluence;
    if (confluence !== undefined) {
      const refusal = undecidedPages(confluence, tally);
      if (refusal !== undefined) throw refusal;
    }
    if (tally.leftOut.size === 0) return produced;
    const count = [...tally.leftOut.values()].reduce((a, b) => a + b, 0);
    const settings = [...tally.leftOut.keys()];
    const note: LeftOutNote = {
      leftOut: count,
      settings,
      note: `${count} item${count === 1 ? '' : 's'} outside ${settings.join(' and ')} ${count === 1 ? 'was' : 'were'} left out of this result.`,
    };
    call.meta[ALLOWLIST_META_KEY] = note;
    const output = produced.output;
    if (output.text !== undefined) return { ...produced, output: { ...output, text: `${note.note}\n${output.text}` } };
    if (!noteFits(call.tool.spec)) return produced;
    return { ...produced, output: { ...output, meta: { allowlist: note, ...output.meta } } };
  }
}

/** Whether the tool's envelope has room for the note beside `data` (or it has no envelope). */
const noteFits = (tool: ToolSpec): boolean =>
  tool.envelope === undefined || Object.hasOwn((tool.envelope as { properties?: object }).properties ?? {}, 'allowlist');
