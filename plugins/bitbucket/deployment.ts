import Type from 'typebox';
import { StartupError, ToolError } from '../../core/errors/tool-error.js';
import { UpstreamClient, type UpstreamClientOptions } from '../../core/http/upstream-client.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';

/*
 * Bitbucket Cloud (API 2.0, `/repositories/{workspace}/{repo}`) or Bitbucket Data Center and Server (REST API
 * 1.0, `/rest/api/1.0/projects/{key}/repos/{slug}`): the typed tools send each its own requests. Data Center has
 * no Pipelines; its tools are refused there before any request. The passthroughs send the path they are given.
 */

export type BitbucketDeployment = 'cloud' | 'datacenter';

export const BitbucketDeploymentSetting = Type.String({
  default: 'auto',
  description:
    'Bitbucket deployment: "cloud", "datacenter" (Data Center or Server) or "auto" (default: Data Center when the first of BITBUCKET_API_PREFIXES is under /rest, as /rest/api/1.0 is).',
});

/** The deployment BITBUCKET_DEPLOYMENT names, or the one the API prefixes imply on "auto". */
export function resolveBitbucketDeployment(setting: string, prefixes: readonly string[]): BitbucketDeployment {
  const value = setting.trim().toLowerCase();
  if (value === 'cloud' || value === 'datacenter') return value;
  if (value === 'server' || value === 'data-center' || value === 'dc') return 'datacenter';
  if (value !== 'auto' && value !== '')
    throw new StartupError(`BITBUCKET_DEPLOYMENT is ${JSON.stringify(setting)}: set it to "cloud", "datacenter" or "auto".`);
  return prefixes[0]?.startsWith('/rest/') ? 'datacenter' : 'cloud';
}

/** The Bitbucket client, which knows which API it speaks. */
export class BitbucketClient extends UpstreamClient {
  constructor(
    options: UpstreamClientOptions,
    readonly deployment: BitbucketDeployment,
  ) {
    super(options);
  }
}

/** Whether a tool's client speaks Data Center's API (false without one: start-up reading a route). */
export const onDataCenter = (upstream: UpstreamBinding | undefined): boolean => (upstream as Partial<BitbucketClient> | undefined)?.deployment === 'datacenter';

/** Refuses a Pipelines tool on Data Center, before any request: there is no such API to send it to. */
export function refusePipelinesOnDataCenter(upstream: UpstreamBinding | undefined, tool: string): void {
  if (!onDataCenter(upstream)) return;
  throw new ToolError(
    'invalid_arguments',
    `${tool} needs Bitbucket Pipelines, which only Bitbucket Cloud has; this server speaks to Bitbucket Data Center (BITBUCKET_DEPLOYMENT), ` +
      'where builds run on a separate CI server (Bamboo, Jenkins, CircleCI...): read their results from that server, or the build statuses Data Center keeps of a commit. Nothing was sent.',
  );
}

/** `/projects/{key}/repos/{slug}` of Data Center's REST API (a Cloud workspace is a Data Center project key). */
export const dataCenterRepoPath = (args: { workspace: string; repoSlug: string }): string =>
  `/projects/${encodeURIComponent(args.workspace)}/repos/${encodeURIComponent(args.repoSlug)}`;
