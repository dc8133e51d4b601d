/**
 * Placeholder credentials of every built-in vendor. With no selection a vendor's default toolsets are served only
 * when it has credentials (issue 53, item 6); a test about the whole default set (its schemas, its size, what an
 * image serves) configures them all. Nothing is sent with them: the tests that use them only list tools.
 */
export const EVERY_VENDOR_CREDENTIALS: Readonly<Record<string, string>> = {
  GITHUB_TOKEN: 'ghp_placeholderToken0123',
  CIRCLECI_TOKEN: 'circle-placeholderToken0123',
  ATLASSIAN_SITE_NAME: 'acme',
  ATLASSIAN_USER_EMAIL: 'placeholder@acme.example',
  ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-placeholder-token',
  ATLASSIAN_BITBUCKET_USERNAME: 'placeholder',
  ATLASSIAN_BITBUCKET_APP_PASSWORD: 'app-password-placeholder',
};
