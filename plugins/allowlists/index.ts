import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import type { Call } from '../../core/plugin/call.js';
import { TOKENS } from '../../core/tokens.js';
import { allowlistOf } from '../resource-names/allowlist.js';
import { checkRequest, type Allowlists } from './allowlist-gate.js';
import { AllowlistSettings } from '../resource-names/allowlist-settings.js';
import { LeftOutItems } from './left-out.js';
import { OwnersFirst } from './owners-first.js';
import type { UpstreamInterceptor } from '../../core/plugin/tool-context.js';

/**
 * Allowlists across vendors (docs/policy.md#allowlists): MCP_ALLOW_REPOS and its kin name the repositories,
 * projects and spaces calls may reach. Decided in the policy stage on the request the validate stage prepared
 * (every typed tool and REST passthrough goes through it), and on each request a handler sends beyond it (the
 * request gate asks the call's `decideFurther`); a request naming anything else is refused before it is sent.
 * What comes back is read too (left-out.ts): items off a list are left out of searches and listings, and the
 * result says how many; a resource read by id that turns out to be off its list is refused whole. A request by
 * id whose path and answer name nothing to decide by (a CircleCI pipeline's config, a write to a workflow or a
 * page by id) is decided before it is sent, by a read of what it belongs to (owners-first.ts).
 * With no list set the plugin contributes nothing.
 */
@Plugin({ name: 'allowlists', version: '1.0.0', settings: AllowlistSettings })
export class AllowlistsPlugin implements DevtoolsPlugin {
  private readonly lists: Allowlists;
  private readonly leftOut: LeftOutItems;
  private readonly ownersFirst: OwnersFirst;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    const own = settings.of(AllowlistSettings);
    const lists: Allowlists = {
      github: allowlistOf('MCP_ALLOW_REPOS', own.MCP_ALLOW_REPOS, { parts: 2, example: 'owner/repo (acme/app, acme/*)' }),
      jira: allowlistOf('MCP_ALLOW_JIRA_PROJECTS', own.MCP_ALLOW_JIRA_PROJECTS, { parts: 1, example: 'a project key (PLAT)' }),
      confluence: allowlistOf('MCP_ALLOW_CONFLUENCE_SPACES', own.MCP_ALLOW_CONFLUENCE_SPACES, { parts: 1, example: 'a space key (ENG)' }),
      bitbucket: allowlistOf('MCP_ALLOW_BITBUCKET_REPOS', own.MCP_ALLOW_BITBUCKET_REPOS, { parts: 2, example: 'workspace/repo (acme/app, acme/*)' }),
      circleci: allowlistOf('MCP_ALLOW_CIRCLECI_PROJECTS', own.MCP_ALLOW_CIRCLECI_PROJECTS, {
        parts: 3,
        example: 'a project slug vcs/org/repo (gh/acme/app, gh/acme/*)',
      }),
    };
    this.lists = Object.fromEntries(Object.entries(lists).filter(([, list]) => list !== undefined));
    this.leftOut = new LeftOutItems(this.lists);
    this.ownersFirst = new OwnersFirst(this.lists);
  }

  interceptors(): UpstreamInterceptor[] {
    return Object.keys(this.lists).length === 0 ? [] : [this.leftOut.interceptor(), this.ownersFirst.interceptor()];
  }

  middleware(): StageMiddleware[] {
    if (Object.keys(this.lists).length === 0) return [];
    const lists = this.lists;
    return [
      {
        stage: 'policy',
        name: 'allowed-resources',
        // Outside the policy decision (by name order, which needs no policy loaded): a resource off the list is
        // refused before any rule or approval is consulted, and the decider it hands on checks further requests.
        run: (ctx, next) => {
          const vendor = ctx.tool.upstream?.identity.vendor;
          const prepared = ctx.prepared;
          if (vendor !== undefined && prepared !== undefined) {
            checkRequest(
              lists,
              vendor,
              ctx.tool.spec.name,
              {
                method: prepared.method,
                path: prepared.path,
                search: prepared.url.search,
                body: prepared.body,
                graphql: prepared.graphql !== undefined,
              },
              true,
            );
          }
          const outer = ctx.decideFurther;
          const decideFurther: Call['decideFurther'] = (request, identity) => {
            checkRequest(
              lists,
              identity.vendor,
              ctx.tool.spec.name,
              {
                method: request.method,
                path: request.path,
                search: request.search ?? '',
                body: request.body,
                graphql: request.graphql !== undefined,
              },
              false,
            );
            outer?.(request, identity);
          };
          return next({ ...ctx, decideFurther });
        },
      },
      {
        stage: 'project',
        name: 'left-out-items',
        // First of the stage by name: the labels, fences and a jq projection keep the note like the rest of the meta.
        transform: (call, produced) => this.leftOut.noted(call, produced),
      },
    ];
  }
}
