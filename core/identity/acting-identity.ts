/**
 * The accounts a person can link, one vault record each. Atlassian Cloud is one link for Jira and Confluence
 * together (one 3LO grant covers both); Data Center products each take their own personal access token.
 */
export const LINK_VENDORS = ['github', 'atlassian', 'bitbucket', 'jira-datacenter', 'confluence-datacenter', 'bitbucket-datacenter', 'circleci'] as const;

export type LinkVendor = (typeof LINK_VENDORS)[number];

/** What people call each linkable account, in messages. */
export const VENDOR_NAMES: Readonly<Record<LinkVendor, string>> = {
  github: 'GitHub',
  atlassian: 'Atlassian Cloud',
  bitbucket: 'Bitbucket Cloud',
  'jira-datacenter': 'Jira Data Center',
  'confluence-datacenter': 'Confluence Data Center',
  'bitbucket-datacenter': 'Bitbucket Data Center',
  circleci: 'CircleCI',
};

export function isLinkVendor(value: string): value is LinkVendor {
  return (LINK_VENDORS as readonly string[]).includes(value);
}

/**
 * Who acted upstream on a call: the person's own linked account, or the deployment's service credential (its
 * label, never its value). `_meta["mcp-devtools/upstream"]`, audit records and policy rules read this.
 */
export type ActingIdentity = UserIdentity | ServiceIdentity;

export interface UserIdentity {
  readonly kind: 'user';
  readonly vendor: LinkVendor;
  /** The vendor's login or display name (`alice`, `alice@acme.com`). */
  readonly login: string;
  /** The vendor's stable account id, where it has one (GitHub's numeric id, Atlassian's account id). */
  readonly accountId?: string;
}

export interface ServiceIdentity {
  readonly kind: 'service';
  /** The credential's label (GITHUB_CREDENTIAL_LABEL and the like). */
  readonly label: string;
}

/** "acts as alice on GitHub": what an approval card or a webhook event says of a call. */
export function describeActing(identity: ActingIdentity): string {
  return identity.kind === 'user' ? `acts as ${identity.login} on ${VENDOR_NAMES[identity.vendor]}` : `acts as the service credential ${identity.label}`;
}
