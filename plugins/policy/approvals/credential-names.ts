/**
 * Whether a name (an argument's key, a query parameter, a variable's name) names a credential, so that the value
 * under it is hidden from approvers whatever it looks like. The rule, as docs/policy.md states it:
 *
 * 1. The name is split into words at every character that is not a letter or a digit, at camelCase humps, and
 *    between letters and digits (`DB_PASS`, `authToken`, `X-Api-Key`, `oauth2Token`).
 * 2. It names a credential when one of its words is a credential word (plural too), or is `key` after a word
 *    that makes a key secret (`ssh_key`, `apiKey`, `private_key`).
 * 3. A word written with no boundary at all counts when it ends in a word no ordinary word ends in (`apitoken`,
 *    `clientsecret`, `jsessionid`) or is such a key run together (`sshkey`, `privatekey`); words are otherwise
 *    compared whole, so `monkey`, `author`, `keyboard`, `passenger`, `spinner` and `opinion` stay visible.
 */

/** Words that name a credential on their own. */
const CREDENTIAL_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'pwd',
  'passphrase',
  'passcode',
  'secret',
  'token',
  'auth',
  'authorization',
  'bearer',
  'credential',
  'cred',
  'cookie',
  'session',
  'sessid',
  'pin',
  'otp',
  'jwt',
]);

/** Words that make the `key` after them a secret one (`ssh_key`); `issueKey`, `sortKey` and `publicKey` are not. */
const KEY_QUALIFIERS = ['api', 'app', 'ssh', 'private', 'access', 'secret', 'signing', 'deploy', 'encryption', 'master', 'client', 'gpg', 'pgp', 'pass'];

/**
 * A word run together from others names a credential when it ends in one of these (no ordinary word does), or is
 * a qualifier followed by `key`. Shorter credential words (`pass`, `pin`, `auth`, `session`) are matched whole
 * only: `bypass`, `spinner`, `oauth` and `possession` end in them.
 */
const RUN_TOGETHER = new RegExp(`(?:token|secret|password|passwd|passphrase|credential|cookie|sessionid)s?$|^(?:${KEY_QUALIFIERS.join('|')})keys?$`);

/** The words of a name, lower case: `X-Api-Key` is `x api key`, `APIKey` is `api key`, `oauth2Token` is `oauth 2 token`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[a-zA-Z])(?=[0-9])|(?<=[0-9])(?=[a-zA-Z])/g, ' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether `name` names a credential (see the rule above). */
export function isCredentialName(name: string): boolean {
  const words = nameWords(name);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (CREDENTIAL_WORDS.has(word) || (word.endsWith('s') && CREDENTIAL_WORDS.has(word.slice(0, -1)))) return true;
    if ((word === 'key' || word === 'keys') && i > 0 && KEY_QUALIFIERS.includes(words[i - 1]!)) return true;
    if (RUN_TOGETHER.test(word)) return true;
  }
  return false;
}
