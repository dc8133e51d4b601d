import { randomBytes } from 'node:crypto';
import { leakAudit } from './leak-audit/leak-audit.js';

/**
 * A credential for this test run only, shaped like the vendor's real ones and marked as a canary, registered
 * with the suite-wide leak check: after the last test, it must appear in no result, log, file or store.
 */
export function canary(shape: string): string {
  const value = `${shape}canary${randomBytes(12).toString('hex')}`;
  leakAudit.addCanaries([value]);
  return value;
}

/** One canary credential per built-in vendor, in each vendor's own format. */
export interface VendorCanaries {
  github: string;
  circleci: string;
  atlassianEmail: string;
  atlassian: string;
  bitbucketUser: string;
  bitbucketAppPassword: string;
  admin: string;
}

export function vendorCanaries(): VendorCanaries {
  return {
    github: canary('ghp_'),
    circleci: canary('CCIPAT_'),
    atlassianEmail: 'hardening-bot@example.com',
    atlassian: canary('ATATT3x'),
    bitbucketUser: 'hardening-bot',
    bitbucketAppPassword: canary('ATBB'),
    admin: canary('admin-'),
  };
}
