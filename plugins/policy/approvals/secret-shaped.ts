/**
 * What looks like a credential in a held call's arguments, though the server was never told it (the server's
 * scrubber finds only the secrets it is configured with): a value under a key named like one (`password`,
 * `apiKey`, `deployToken`, `Authorization`), and strings shaped like the well-known token formats. Approvers see
 * what a call will do; they never need the token an agent pasted into it.
 */

/** Words of a key that name a credential (the key is split at camelCase humps, `_`, `-` and `.`). */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'secrets',
  'token',
  'tokens',
  'authorization',
  'credential',
  'credentials',
  'cookie',
  'cookies',
]);
/** Pairs of words that name one (`apiKey`, `private_key`, `accessKey`, `clientSecret` is covered above). */
const SECRET_PAIRS = new Set(['api key', 'private key', 'access key', 'secret key', 'signing key', 'session id']);

/**
 * Token formats with a prefix of their own (GitHub, Slack, Atlassian, CircleCI, GitLab, npm, AWS key ids,
 * Stripe-style keys), JSON Web Tokens, PEM private keys, HTTP credentials written out, and URLs carrying a
 * password: found anywhere in a string, so a token inside a comment is cut out and the words around it kept.
 */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bATATT[A-Za-z0-9_=-]{20,}/g,
  /\bCCIPAT_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi,
];
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi;

export const REDACTED = '[REDACTED]';

/** Whether a key names a credential, so that its whole value is hidden. */
export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  for (let i = 0; i + 1 < words.length; i++) if (SECRET_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  // Keys written as one word: "apikey", "privatekey".
  return words.some((w) => /^(?:apikey|privatekey|accesskey|secretkey)$/.test(w));
}

/** The string with every token-shaped part replaced by [REDACTED] (and a URL's password by it). */
export function withoutTokens(text: string): string {
  let out = text;
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  return out.replace(URL_PASSWORD, `$1${REDACTED}@`);
}
