import { isLinkVendor, VENDOR_NAMES, type LinkVendor } from '../../../core/identity/acting-identity.js';
import { LinkError } from '../../../core/identity/link-error.js';
import type { Logger } from '../../../core/logging/logger.js';
import type { ContributionContext, RouteHandler, RouteRequest } from '../../../core/plugin/contributions.js';
import { StoreError } from '../../../core/store/key-value-store.js';
import type { AccountLinking } from '../account-linking.js';
import { linkingOf } from '../identity-tokens.js';
import { sendContinue, sendProblem } from './callback-page.js';

const PATH = /^\/identity\/callback\/([a-z-]{1,32})$/;
/** Longer than any code and state a vendor sends back: anything past it is not a callback. */
const MAX_URL = 4096;
/** An OAuth error code (RFC 6749 4.1.2.1) as shown: a short word, never its description (which may echo anything). */
const OAUTH_ERROR = /^[A-Za-z0-9_.-]{1,64}$/;
const NOTHING = 'nothing was linked';

/**
 * The browser's way back from a vendor's consent page, `<public URL>/identity/callback/<vendor>`: a route declared
 * `auth: 'none'`, since the browser carries no bearer token and the console's SameSite=Strict cookie is not sent
 * on a cross-site redirect. It decides nothing about who is linking. It checks that the state is an attempt of
 * this vendor still waiting, keeps the code and state sealed in the store, and sends the browser on (a same-site
 * navigation, which does carry the console's cookie) to the console page that finishes the link only for the
 * session that started it. Every other arrival ends on a page with one sentence, and nothing linked.
 */
export function callbackRoute({ kernel, logger }: ContributionContext): RouteHandler {
  const consoleOn = kernel.settings.has('MCP_CONSOLE') && kernel.settings.get('MCP_CONSOLE') === true;
  return serveCallback(() => linkingOf(kernel), consoleOn, logger);
}

export function serveCallback(linking: () => AccountLinking | undefined, consoleOn: boolean, logger: Logger): RouteHandler {
  return async (request, response) => {
    const refuse = (status: number, sentence: string) => sendProblem(response, status, 'Not linked', sentence);
    const served = linking();
    const vendor = vendorOf(request.path, served);
    if (vendor === undefined) return refuse(404, `This address is not the callback of a vendor this server links accounts with, so ${NOTHING}.`);
    const name = VENDOR_NAMES[vendor];
    if (request.method !== 'GET') return refuse(405, `The ${name} callback is opened by your browser (GET) coming back from ${name}; ${NOTHING}.`);
    if ((request.raw.url ?? '').length > MAX_URL) return refuse(414, `This ${name} callback's address is too long to be one ${name} sent; ${NOTHING}.`);
    if (!consoleOn) return refuse(404, `Browser links are finished in the console, which is off on this server (MCP_CONSOLE); ${NOTHING}. Ask its operator.`);
    const query = queryOf(request);
    const error = query.get('error');
    if (error !== null) return refuse(400, vendorDeclined(name, error));
    const code = query.get('code');
    const state = query.get('state');
    if (code === null || state === null || query.getAll('code').length > 1 || query.getAll('state').length > 1)
      return refuse(400, `This ${name} callback does not carry one code and one state, so it is not the end of a link attempt; ${NOTHING}.`);
    try {
      sendContinue(response, await served!.arrive(vendor, code, state));
    } catch (failure) {
      if (failure instanceof LinkError) return refuse(failure.retryable ? 503 : 400, `${failure.message.replace(/\.$/, '')}; ${NOTHING}.`);
      if (failure instanceof StoreError) {
        logger.warn({ err: failure }, 'store of link attempts unavailable');
        return refuse(503, `The store of linked accounts could not be reached, so ${NOTHING}; try again in a moment.`);
      }
      throw failure;
    }
  };
}

/** A vendor the server links in the browser, from the path: anything else (a forged segment) is no one's. */
function vendorOf(path: string, linking: AccountLinking | undefined): LinkVendor | undefined {
  const segment = PATH.exec(path)?.[1];
  if (segment === undefined || !isLinkVendor(segment) || linking === undefined) return undefined;
  return linking.vendors.redirect.includes(segment) ? segment : undefined;
}

function vendorDeclined(name: string, error: string): string {
  if (error === 'access_denied') return `You did not allow access at ${name}, so ${NOTHING}. Connect again from Connected accounts when you want to.`;
  const code = OAUTH_ERROR.test(error) ? ` (${error})` : '';
  return `${name} did not grant the link${code}, so ${NOTHING}; start linking again from Connected accounts.`;
}

function queryOf(request: RouteRequest): URLSearchParams {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
}
