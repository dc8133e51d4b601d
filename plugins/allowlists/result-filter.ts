import { ToolError } from '../../core/errors/tool-error.js';
import type { Allowlist } from '../resource-names/allowlist.js';
import { RESOURCE } from './allowlist-gate.js';
import type { ListedVendor } from '../resource-names/named-resources.js';
import { allowedGraphqlAnswer } from './graphql-results.js';
import { refusedNode, type RefusedNode } from './graphql-node-results.js';
import { resultShape, type AnsweredRequest, type ItemName } from './result-items.js';

/** What one call's responses had left out or still owe a decision on (left-out.ts keeps one per call). */
export interface CallTally {
  /** Items left out of lists, by the setting whose list left them out. */
  readonly leftOut: Map<string, number>;
  /** Confluence pages read by id whose space (named by id only) is not decided yet: space id, what was read. */
  readonly pendingSpaces: Map<string, string>;
}

export const newTally = (): CallTally => ({ leftOut: new Map(), pendingSpaces: new Map() });

/** Who asks, for the sentences: the tool and the request whose response is read. */
export interface Reader {
  readonly tool: string;
  readonly request: AnsweredRequest & { readonly body?: string; readonly graphql?: unknown };
}

/**
 * The response body as the list lets it through: a list's items off it left out (and counted in `tally`), an
 * object of one resource off it refused whole (a ToolError: the data never reaches the handler). A Confluence
 * page that names its space by id only is held until its space is read (`tally.pendingSpaces`), or refused at
 * once when the call keeps no tally. A body of another shape than the vendor documents is let through as it is.
 */
export function allowedBody(list: Allowlist, vendor: ListedVendor, reader: Reader, body: unknown, tally: CallTally | undefined): unknown {
  if (vendor === 'github' && reader.request.graphql !== undefined) {
    // A node read by id is a read by id: one off the list (or that names no repository) withholds the answer.
    const node = refusedNode(list, reader.request.body, body);
    if (node !== undefined) throw nodeWithheld(list, reader, node);
    const { answer, leftOut } = allowedGraphqlAnswer(list, reader.request.body, body);
    if (leftOut > 0) count(list, reader, leftOut, tally);
    return answer;
  }
  const shape = resultShape(vendor, reader.request);
  if (shape === undefined) return body;
  // A write's answer comes after the write: refusing it would hide what was done (a write by id is not decided).
  if (shape.kind === 'one' && reader.request.method.toUpperCase() !== 'GET') return body;
  const pathDecided = shape.kind === 'one' && shape.pathDecided === true;
  if (shape.kind === 'one' && !Array.isArray(body)) {
    const name = shape.nameOf(body);
    decideOne(list, vendor, reader, shape.what, pathDecided && name === undefined ? null : name, body, tally);
    return body;
  }
  const keys = shape.kind === 'list' ? shape.at : [];
  const { value, left } = filtered(body, keys, (item) => {
    const name = shape.nameOf(item);
    return admits(list, pathDecided && name === undefined ? null : name);
  });
  if (left === 0) return body;
  count(list, reader, left, tally);
  return value;
}

/** Whether an item whose resources are `name` may be shown: no resource at all, or every one on the list. */
function admits(list: Allowlist, name: ItemName): boolean {
  if (name === null) return true;
  if (name === undefined) return false;
  const names = typeof name === 'string' ? [name] : name;
  return names.length > 0 && names.every((n) => list.allows(n));
}

function decideOne(list: Allowlist, vendor: ListedVendor, reader: Reader, what: string, name: ItemName, body: unknown, tally: CallTally | undefined): void {
  const read = `${reader.tool} (${reader.request.method} ${reader.request.path.split('?', 1)[0]})`;
  if (name === undefined) {
    const spaceId = vendor === 'confluence' ? idOf(body, 'spaceId') : undefined;
    if (spaceId !== undefined && tally !== undefined) {
      tally.pendingSpaces.set(spaceId, `${read} read ${what}`);
      return;
    }
    throw withheld(
      list,
      `${read} returned ${what}, whose ${RESOURCE[vendor]} ${list.setting} cannot decide${spaceId !== undefined ? ` (it names its space by id ${spaceId} only: read a page with conf_get_page, which reads its space)` : ''}, so the result was withheld.`,
    );
  }
  if (name === null) return;
  for (const value of typeof name === 'string' ? [name] : name) {
    if (!list.allows(value))
      throw withheld(
        list,
        `${read} returned ${what} of the ${RESOURCE[vendor]} ${value}, which ${list.setting} (${list.patterns.join(',')}) does not allow, so the result was withheld: add ${value} to ${list.setting} to allow it.`,
        value,
      );
  }
  // A space read by id decides the pages that named it (conf_get_page's second read).
  if (vendor === 'confluence' && tally !== undefined) {
    const id = idOf(body, 'id');
    if (id !== undefined) tally.pendingSpaces.delete(id);
  }
}

/** The refusal of a call whose page's space was never read: at the end of the call, before anything is shown. */
export function undecidedPages(list: Allowlist, tally: CallTally): ToolError | undefined {
  const first = tally.pendingSpaces.values().next();
  if (first.done === true) return undefined;
  return withheld(
    list,
    `${first.value}, which names its space by id only, so ${list.setting} cannot decide it and the result was withheld: read a page with conf_get_page, which reads its space.`,
  );
}

/** The refusal of a GraphQL answer with a node by id off the list, or one that names no repository. */
function nodeWithheld(list: Allowlist, reader: Reader, node: RefusedNode): ToolError {
  const read = `${reader.tool} (${reader.request.method} ${reader.request.path.split('?', 1)[0]})`;
  const what = `the node at ${node.at}${node.typename === undefined ? '' : ` (a ${node.typename})`}`;
  if (node.repository === undefined)
    return withheld(
      list,
      `${read} read ${what} by id, which names no repository, so ${list.setting} cannot decide it and the result was withheld: select \`repository { nameWithOwner }\` on it (\`nameWithOwner\` for a Repository, or \`url\`).`,
    );
  return withheld(
    list,
    `${read} read ${what} by id, of the GitHub repository ${node.repository}, which ${list.setting} (${list.patterns.join(',')}) does not allow, so the result was withheld: add ${node.repository} to ${list.setting} to allow it.`,
    node.repository,
  );
}

function withheld(list: Allowlist, message: string, value?: string): ToolError {
  return new ToolError('policy_denied', message, {
    meta: { code: 'policy_denied', allowlist: { setting: list.setting, ...(value === undefined ? {} : { value }) } },
  });
}

function idOf(body: unknown, key: string): string | undefined {
  const v = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/**
 * `value` with the array at `keys` (`*` for each element of an array on the way: Jira's picker sections) holding
 * only what `keep` keeps, and how many it left out. A copy where something was left out (the response may be a
 * cached one: never changed in place); `value` itself where nothing was, or where the shape is not there.
 */
function filtered(value: unknown, keys: readonly string[], keep: (item: unknown) => boolean): { value: unknown; left: number } {
  if (keys.length === 0) {
    if (!Array.isArray(value)) return { value, left: 0 };
    const kept = value.filter(keep);
    return { value: kept.length === value.length ? value : kept, left: value.length - kept.length };
  }
  const [key, ...rest] = keys;
  if (key === '*') {
    if (!Array.isArray(value)) return { value, left: 0 };
    let left = 0;
    const each = value.map((element: unknown) => {
      const inner = filtered(element, rest, keep);
      left += inner.left;
      return inner.value;
    });
    return { value: left === 0 ? value : each, left };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { value, left: 0 };
  const object = value as Record<string, unknown>;
  const inner = filtered(object[key!], rest, keep);
  if (inner.left === 0) return { value, left: 0 };
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(object)) Object.defineProperty(copy, k, { value: object[k], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(copy, key!, { value: inner.value, enumerable: true, writable: true, configurable: true });
  return { value: copy, left: inner.left };
}

/** Counts items left out for the call's note; a call that keeps no tally cannot say so, and is refused. */
function count(list: Allowlist, reader: Reader, left: number, tally: CallTally | undefined): void {
  if (tally === undefined) {
    // No call to report the count to (a tool without a prepared request): say so in the one place there is.
    throw new ToolError(
      'policy_denied',
      `${reader.tool} read ${left} item${left === 1 ? '' : 's'} outside ${list.setting}, and cannot report them left out, so its result was withheld.`,
      { meta: { code: 'policy_denied', allowlist: { setting: list.setting } } },
    );
  }
  tally.leftOut.set(list.setting, (tally.leftOut.get(list.setting) ?? 0) + left);
}
