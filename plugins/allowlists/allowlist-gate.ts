import { ToolError } from '../../core/errors/tool-error.js';
import type { Allowlist } from '../resource-names/allowlist.js';
import { namedResources, type ListedVendor, type Named, type ReadRequest } from '../resource-names/named-resources.js';

/** The allowlists in force, by vendor; a vendor without one allows everything. */
export type Allowlists = Partial<Record<ListedVendor, Allowlist>>;

/** What each vendor's list holds, as its refusal names it. */
export const RESOURCE: Readonly<Record<ListedVendor, string>> = {
  github: 'GitHub repository',
  bitbucket: 'Bitbucket repository',
  circleci: 'CircleCI project',
  jira: 'Jira project',
  confluence: 'Confluence space',
};

/**
 * Throws the refusal of a request that names something its vendor's list does not hold; returns for one that
 * names nothing outside it, or whose vendor has no list. A spelling no list of names decides (a repository by id)
 * is refused in the request the call prepared (the caller chose it), and let through in a request the tool's own
 * code sends beyond it (conf_get_page reads its page's space by id; a renamed repository redirects to its id).
 */
export function checkRequest(lists: Allowlists, vendor: string, tool: string, request: ReadRequest, prepared: boolean): void {
  const list = lists[vendor as ListedVendor];
  if (list === undefined) return;
  for (const named of namedResources(vendor as ListedVendor, request)) {
    if (!admits(list, named, prepared)) throw refusal(list, vendor as ListedVendor, tool, request, named);
  }
}

function admits(list: Allowlist, named: Named, prepared: boolean): boolean {
  if (named.kind === 'resource') return list.allows(named.value);
  if (named.kind === 'container') return list.allowsPrefix(named.value);
  return !prepared;
}

function refusal(list: Allowlist, vendor: ListedVendor, tool: string, request: ReadRequest, named: Named): ToolError {
  const what = `${tool} (${request.method} ${request.path.split('?', 1)[0]})`;
  const message =
    named.kind === 'undecidable'
      ? `${what} names a ${RESOURCE[vendor]} as ${named.what}, which ${list.setting} cannot decide, so it was refused and nothing was sent.`
      : `${what} names the ${RESOURCE[vendor]}${named.kind === 'container' ? ' owner' : ''} ${named.value}, which ${list.setting} (${list.patterns.join(',')}) does not allow: add ${named.kind === 'container' ? `${named.value}/*` : named.value} to ${list.setting} to allow it; nothing was sent.`;
  return new ToolError('policy_denied', message, {
    meta: { code: 'policy_denied', allowlist: { setting: list.setting, ...(named.kind === 'undecidable' ? {} : { value: named.value }) } },
  });
}
