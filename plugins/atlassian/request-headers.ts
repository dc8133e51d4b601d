import { SERVER_NAME, VERSION } from '../../core/version.js';

/** Headers of every Atlassian request: JSON wanted, and who is asking. */
export const ATLASSIAN_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  accept: 'application/json',
  'user-agent': `${SERVER_NAME}/${VERSION}`,
});

/**
 * The base URL of a product whose site is not configured. It is never requested (a call fails on the missing
 * settings first) and the reserved `.invalid` name could not resolve if it were.
 */
export const UNCONFIGURED_BASE_URL = 'https://unconfigured.invalid';
