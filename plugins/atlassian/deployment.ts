import Type from 'typebox';
import { StartupError } from '../../core/errors/tool-error.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';

/*
 * Cloud or Data Center (and Server, which speaks the same API): which API a Jira or Confluence answers with.
 * The typed tools send different requests to each (Jira Cloud's REST API 3 takes the Atlassian Document
 * Format, Data Center's API 2 wiki markup; Confluence Cloud's API lives under /wiki); the passthroughs send
 * the path they are given and do not depend on it.
 */

export type Deployment = 'cloud' | 'datacenter';

/** `<PREFIX>_DEPLOYMENT`: "auto" decides by the base URL's host. */
export function deploymentSetting(label: string): ReturnType<typeof Type.String> {
  return Type.String({
    default: 'auto',
    description: `${label} deployment: "cloud", "datacenter" (Data Center or Server) or "auto" (default: Cloud when the base URL's host ends in .atlassian.net).`,
  });
}

/** The deployment a setting names, or the one the base URL's host implies when it says "auto". */
export function resolveDeployment(setting: string, baseUrl: string, settingKey: string): Deployment {
  const value = setting.trim().toLowerCase();
  if (value === 'cloud' || value === 'datacenter') return value;
  if (value === 'server' || value === 'data-center' || value === 'dc') return 'datacenter';
  if (value !== 'auto' && value !== '') {
    throw new StartupError(`${settingKey} is ${JSON.stringify(setting)}: set it to "cloud", "datacenter" or "auto".`);
  }
  let host = '';
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    // An unusable base URL is reported by the client, naming its own setting.
  }
  return host === 'atlassian.net' || host.endsWith('.atlassian.net') ? 'cloud' : 'datacenter';
}

/** What the typed tools need to know of a site product's client beyond sending: its API and its web address. */
export interface SiteApi {
  readonly deployment: Deployment;
  /** The base URL people open in a browser (the API's base URL): issue and page links are built on it. */
  readonly webBaseUrl: string;
}

/** The site API of a tool's client; Cloud at the site's usual address when there is none (start-up reading a route's method). */
export function siteApiOf(upstream: UpstreamBinding | undefined): SiteApi {
  const api = upstream as Partial<SiteApi> | undefined;
  if (api?.deployment !== undefined && api.webBaseUrl !== undefined) return { deployment: api.deployment, webBaseUrl: api.webBaseUrl };
  return { deployment: 'cloud', webBaseUrl: 'https://unconfigured.invalid' };
}
