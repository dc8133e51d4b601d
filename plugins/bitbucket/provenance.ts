import { resourceKey, type Provenance, type ProvenanceLabel } from '../../core/plugin/provenance.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import { PlaceLookup } from '../atlassian/place-visibility.js';
import { repoPath } from './repo-args.js';

// Whose words a Bitbucket answer carries (docs/untrusted-content.md#how-trust-is-derived-per-vendor): a pull
// request names its author but not their permission on the repository (a lookup per author needs admin rights),
// so its text is untrusted; the repository is public when Bitbucket says `is_private: false`.

/** The repository a tool reads or writes, as flow rules name it. */
export const bitbucketRepo = (args: { workspace: string; repoSlug: string }): string => resourceKey('bitbucket', `${args.workspace}/${args.repoSlug}`);

/** The repository read for its `is_private`, beyond the tool's route. */
export const REPOSITORY_LOOKUP: FurtherRoute = { method: 'GET', path: '/repositories/*/*' };

/** A Cloud page of pull requests (`values`): each untrusted, as private as its repository. */
export async function pullRequestLabels(
  client: UpstreamClient,
  ctx: AnyToolContext,
  args: { workspace: string; repoSlug: string },
  page: unknown,
): Promise<Provenance> {
  const values = (page as { values?: unknown } | null)?.values;
  if (!Array.isArray(values)) return { labels: [], warnings: [] };
  const visibility = await new PlaceLookup(
    client,
    ctx,
    'repository',
    () => ({ method: 'GET', path: repoPath(args) }),
    (b) => (b as { is_private?: unknown } | null)?.is_private === false,
  ).of(`${args.workspace}/${args.repoSlug}`);
  const labels = values.map((pr, i): ProvenanceLabel => {
    const p = (pr ?? {}) as { id?: unknown; author?: { nickname?: unknown; account_id?: unknown }; links?: { html?: { href?: unknown } } };
    const author = [p.author?.account_id, p.author?.nickname].find((a): a is string => typeof a === 'string') ?? null;
    return {
      item: `${args.workspace}/${args.repoSlug} PR ${String(p.id ?? '?')}`,
      resource: bitbucketRepo(args),
      integrity: 'untrusted',
      confidentiality: visibility.confidentiality,
      ...(visibility.known ? {} : { assumed: true }),
      author,
      why: `Bitbucket does not say the author's permission; ${visibility.why.replace('repository readable anonymously', 'repository public').replace('repository not readable anonymously', 'repository private')}`,
      ...(typeof p.links?.html?.href === 'string' ? { url: p.links.html.href } : {}),
      at: ['values', i],
      fields: ['title', 'description'],
    };
  });
  return { labels, warnings: visibility.warning === undefined ? [] : [visibility.warning] };
}
