import { isCredentialName } from './credential-names.js';

/**
 * Strings shaped like a credential in a held call's arguments, though the server was never told them (the
 * server's scrubber, core/result/secret-scrubber.ts, finds only the secrets it is configured with, and the
 * preview runs it first): the vendors' token formats, webhook URLs that are themselves credentials, HTTP
 * credentials written out, and URLs carrying a password or a token. Approvers see what a call will do; they
 * never need the token an agent pasted into it. (Values under a key that names a credential are hidden whole:
 * credential-names.ts.)
 */

export const REDACTED = '[REDACTED]';

/** A token written after an HTTP scheme word: what `Authorization` headers carry. */
const CREDENTIAL = '[A-Za-z0-9._~+/=-]';

/**
 * Token formats, each replaced where found in a string, so a token inside a comment is cut out and the words
 * around it kept. `$1` keeps what names the place (a webhook's host and kind), never the secret part.
 */
const TOKEN_SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  // GitHub: personal (classic and fine-grained), OAuth, user-to-server, server-to-server and refresh tokens.
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, REDACTED],
  // Slack bot, user, app-level and refresh tokens.
  [/\b(?:xox[abposr]-|xapp-)[A-Za-z0-9-]{10,}/g, REDACTED],
  // Atlassian API tokens; Bitbucket app passwords and access tokens.
  [/\bAT(?:ATT|BB)[A-Za-z0-9_=-]{20,}/g, REDACTED],
  // CircleCI personal and project tokens.
  [/\bCCIP(?:AT|RJ)_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, REDACTED],
  [/\bnpm_[A-Za-z0-9]{30,}/g, REDACTED],
  // AWS access key ids; Google API keys and OAuth access tokens; Stripe-style and OpenAI-style keys.
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, REDACTED],
  [/\bya29\.[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g, REDACTED],
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}/g, REDACTED],
  // JSON Web Tokens and PEM private keys.
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, REDACTED],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  // Incoming webhooks whose URL is the credential: Slack (services, workflows, triggers) and Discord.
  [/\b(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{8,}/gi, `$1${REDACTED}`],
  [/\b((?:discord|discordapp)\.com\/api\/webhooks\/)[0-9]+\/[A-Za-z0-9_-]+/gi, `$1${REDACTED}`],
  // An Authorization header written out, whatever its scheme; then the schemes on their own.
  [new RegExp(`\\b((?:proxy-)?authorization\\s*[:=]\\s*)(?:[A-Za-z]+\\s+)?${CREDENTIAL}{8,}`, 'gi'), `$1${REDACTED}`],
  [new RegExp(`\\b(?:Bearer|Basic)\\s+${CREDENTIAL}{12,}`, 'gi'), REDACTED],
];

/**
 * `Token <credential>` (CircleCI, Django REST) and `Bot <credential>` (Discord), as written in a header: the
 * words are capitalized and the credential looks random (a digit, or both cases), so prose such as "the Bot
 * deployment-runner" is left alone.
 */
const SCHEME_TOKEN = new RegExp(`\\b(?:Token|Bot)\\s+(${CREDENTIAL}{16,})`, 'g');
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi;
/**
 * A URL's query parameter (`?access_token=...`), whose value is hidden when its name names a credential. A name
 * holds no `?`, so a long text of them is read once, not once from each.
 */
const QUERY_PARAMETER = /([?&])([^=&#?\s]+)=([^&#\s]*)/g;

/** The string with every token-shaped part replaced by [REDACTED] (and a URL's password or token by it). */
export function withoutTokens(text: string): string {
  let out = text;
  for (const [shape, replacement] of TOKEN_SHAPES) out = out.replace(shape, replacement);
  out = out.replace(SCHEME_TOKEN, (whole, credential: string) => (looksRandom(credential) ? REDACTED : whole));
  out = out.replace(URL_PASSWORD, `$1${REDACTED}@`);
  return out.includes('=')
    ? out.replace(QUERY_PARAMETER, (whole, sep: string, name: string) => (isCredentialName(name) ? `${sep}${name}=${REDACTED}` : whole))
    : out;
}

function looksRandom(credential: string): boolean {
  return /[0-9]/.test(credential) || (/[a-z]/.test(credential) && /[A-Z]/.test(credential.slice(1)));
}
