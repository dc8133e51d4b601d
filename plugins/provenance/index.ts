import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import type { DevtoolsPlugin, ToolSpec } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import { TOKENS } from '../../core/tokens.js';
import { labelledResult, unlabelled, type LabelPolicy } from './labelled-result.js';
import { ProvenanceSettings, trustedBots } from './provenance-settings.js';

/** Tools that declare that their results carry people-written text. */
const labelsPeopleText = (tool: ToolSpec): boolean => tool.provenance?.labels === true;

/**
 * Untrusted content (docs/untrusted-content.md): each result of a tool that returns people-written text carries
 * its labels in `_meta` and a summary beside `data`; untrusted text is fenced, or withheld under lockdown
 * (MCP_LOCKDOWN, or `X-MCP-Lockdown: true` on the request, which can only tighten). The labels come from each
 * vendor's handler; a result without them is taken as untrusted and private as a whole.
 */
@Plugin({ name: 'provenance', version: '1.0.0', settings: ProvenanceSettings })
export class ProvenancePlugin implements DevtoolsPlugin {
  private readonly policy: LabelPolicy;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    const own = settings.of(ProvenanceSettings);
    this.policy = { lockdown: own.MCP_LOCKDOWN, fence: own.MCP_FENCE, trustedBots: trustedBots(own.MCP_TRUSTED_BOTS) };
  }

  middleware(): StageMiddleware[] {
    return [
      {
        stage: 'project',
        name: 'labels-and-fences',
        // Before projection, so a jq expression picks a field with its fence (or its withheld line).
        before: ['projection/jmespath'],
        appliesTo: labelsPeopleText,
        transform: (call, produced) => {
          const lockdown = this.policy.lockdown || call.session?.lockdown === true;
          return labelledResult(call, produced, produced.output.provenance ?? unlabelled(call), { ...this.policy, lockdown });
        },
      },
    ];
  }
}
