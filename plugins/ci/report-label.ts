import { resourceKey, type Provenance } from '../../core/plugin/provenance.js';
import type { CommitChecks, CommitRef } from './collect-report.js';

/**
 * Whose code the builds a failure report quotes ran (docs/untrusted-content.md): a GitHub pull request whose head
 * lives in the repository itself is the repository's own branch, trusted; one from a fork (or whose head
 * repository GitHub no longer names, a deleted fork) built a fork's code, untrusted. Any other ref (a SHA, a
 * branch, a Bitbucket commit) is not looked up: untrusted. Confidentiality: the pull request's base repository
 * when it says, else private. The report's text is final: an untrusted report is fenced whole.
 */
export function reportLabel(target: CommitRef, checks: CommitChecks): Provenance {
  const vendor = checks.host;
  const pr = checks.pullRequest;
  const own = pr !== undefined && pr.head !== undefined && pr.base !== undefined && pr.head.toLowerCase() === pr.base.toLowerCase();
  const why =
    pr === undefined
      ? 'quotes build logs; whether a build was of a fork is not looked up'
      : own
        ? "quotes builds of the repository's own branch"
        : `quotes builds of ${pr.head === undefined ? 'a fork GitHub no longer names' : `the fork ${pr.head}`}`;
  const known = pr?.basePrivate !== undefined;
  return {
    labels: [
      {
        item: `${target.repo} at ${target.ref} (CI failure report)`,
        resource: resourceKey(vendor, target.repo),
        integrity: own ? 'trusted' : 'untrusted',
        confidentiality: pr?.basePrivate === false ? 'public' : 'private',
        ...(known ? {} : { assumed: true }),
        author: null,
        why: `${why}; ${known ? `repository ${pr.basePrivate ? 'private' : 'public'}` : 'repository visibility not looked up'}`,
        at: [],
        fields: [],
      },
    ],
    warnings: [],
  };
}
