import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Tool } from '../../core/plugin/decorators.js';
import { callPassthrough, type PassthroughBehaviour } from './passthrough-call.js';
import { passthroughToolSpec, VERBS, type PassthroughProduct } from './passthrough-tools.js';

/**
 * What the Jira, Confluence and Bitbucket plugins share: one handler behind a product's five tools. Each
 * tool's route (computed from its arguments at validation) already says which method and path to send.
 */
export abstract class AtlassianPassthroughPlugin implements DevtoolsPlugin {
  protected constructor(
    readonly upstream: UpstreamClient,
    private readonly behaviour: PassthroughBehaviour,
  ) {}

  call(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, this.behaviour);
  }
}

/** Declares a product's `<prefix>_get|post|put|patch|delete` tools on the plugin class, all handled by `call`. */
export function PassthroughTools(product: PassthroughProduct): ClassDecorator {
  return (target) => {
    const handler = Object.getOwnPropertyDescriptor(AtlassianPassthroughPlugin.prototype, 'call')!;
    for (const verb of VERBS) Tool(passthroughToolSpec(product, verb))(target.prototype as object, 'call', handler);
  };
}
