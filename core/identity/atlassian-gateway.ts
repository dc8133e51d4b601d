/**
 * With a linked Atlassian Cloud account (OAuth 2.0 3LO), requests do not go to the site's own URL but to the
 * API gateway, by the site's cloud id: https://api.atlassian.com/ex/jira/{cloudId}/rest/api/3/myself for Jira,
 * https://api.atlassian.com/ex/confluence/{cloudId}/... for Confluence. This gives that base URL.
 */
export function atlassianGatewayBase(product: 'jira' | 'confluence', cloudId: string, apiBaseUrl = 'https://api.atlassian.com'): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(cloudId)) throw new TypeError('An Atlassian cloud id is letters, digits and dashes.');
  return `${apiBaseUrl.replace(/\/+$/, '')}/ex/${product}/${cloudId}`;
}
