import { SERVER_NAME, VERSION } from '../../core/version.js';

/** Headers of every Atlassian request: JSON wanted, and who is asking. */
export const ATLASSIAN_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  accept: 'application/json',
  'user-agent': `${SERVER_NAME}/${VERSION}`,
});
