import type { LinkVendor } from '../../../core/identity/acting-identity.js';
import { LinkError } from '../../../core/identity/link-error.js';
import type { SecretText } from '../../../core/identity/secret-text.js';
import type { NewLink } from '../vault-record.js';
import type { TokenCheck } from './link-flow.js';
import { readAsOwner, type VendorRead } from './vendor-read.js';

type Who = Pick<NewLink, 'login' | 'accountId'>;

interface WhoAmI {
  /** The read that only the token's owner gets an answer to. */
  path: string;
  header?: VendorRead['header'];
  text?: boolean;
  /** The owner, from the answer; undefined when the answer does not name one (an anonymous user). */
  owner(answer: unknown): Who | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The documented "who am I" read of each vendor that takes a personal access token: Jira Data Center
 * GET /rest/api/2/myself, Confluence Data Center GET /rest/api/user/current (which answers an anonymous user
 * when anonymous access is on: refused here), Bitbucket Data Center GET /plugins/servlet/applinks/whoami (the
 * user name as text; the REST API has no "myself"), CircleCI GET /api/v2/me.
 */
const WHO_AM_I: Readonly<Record<'jira-datacenter' | 'confluence-datacenter' | 'bitbucket-datacenter' | 'circleci', WhoAmI>> = {
  'jira-datacenter': {
    path: '/rest/api/2/myself',
    owner: (a) => {
      const me = a as { name?: unknown; key?: unknown; emailAddress?: unknown };
      const login = str(me.name);
      return login === undefined ? undefined : { login, ...(str(me.key) ? { accountId: str(me.key) } : {}) };
    },
  },
  'confluence-datacenter': {
    path: '/rest/api/user/current',
    owner: (a) => {
      const me = a as { type?: unknown; username?: unknown; userKey?: unknown };
      const login = str(me.username);
      return me.type === 'anonymous' || login === undefined ? undefined : { login, ...(str(me.userKey) ? { accountId: str(me.userKey) } : {}) };
    },
  },
  'bitbucket-datacenter': {
    path: '/plugins/servlet/applinks/whoami',
    text: true,
    owner: (a) => {
      const login = typeof a === 'string' ? a.trim() : '';
      return login === '' ? undefined : { login };
    },
  },
  circleci: {
    path: '/api/v2/me',
    header: 'circle-token',
    owner: (a) => {
      const me = a as { login?: unknown; id?: unknown };
      const login = str(me.login);
      return login === undefined ? undefined : { login, ...(str(me.id) ? { accountId: str(me.id) } : {}) };
    },
  },
};

export type PersonalTokenVendor = keyof typeof WHO_AM_I;

/**
 * A personal access token the person enters (in the console or the CLI, never through the model), checked
 * with one read at the vendor before it is kept: a token the vendor refuses, or that reads as nobody, is not.
 * `baseUrl` is the product's base URL (a path such as /jira is kept).
 */
export class PersonalTokenCheck implements TokenCheck {
  constructor(
    readonly vendor: PersonalTokenVendor,
    private readonly baseUrl: string,
  ) {}

  async validate(token: SecretText): Promise<NewLink> {
    const who = WHO_AM_I[this.vendor];
    const answer = await readAsOwner<unknown>({
      vendor: this.vendor as LinkVendor,
      url: `${this.baseUrl.replace(/\/+$/, '')}${who.path}`,
      token,
      ...(who.header ? { header: who.header } : {}),
      ...(who.text ? { text: true } : {}),
    });
    const owner = who.owner(answer);
    if (owner === undefined) throw new LinkError('token_refused', this.vendor, { vendorError: 'anonymous' });
    return { tokens: { accessToken: token }, ...owner, siteUrl: this.baseUrl.replace(/\/+$/, ''), scopes: [] };
  }
}
