import type { Call, Produced } from '../../core/plugin/call.js';
import { PROVENANCE_META_KEY, type Provenance, type ProvenanceLabel } from '../../core/plugin/provenance.js';
import type { ToolSpec } from '../../core/plugin/tool-spec.js';
import { fenced, fenceStatement, newFence, type Fence } from './fence.js';
import { anyStringHolds, fieldTexts, withFields } from './value-paths.js';

/** What the stage was configured with, and what this call's request asked for. */
export interface LabelPolicy {
  lockdown: boolean;
  fence: boolean;
  trustedBots: ReadonlySet<string>;
}

/** The labels of a result whose handler gave none: the whole of it, untrusted and private (never fail open). */
export function unlabelled(call: Call): Provenance {
  const label: ProvenanceLabel = {
    item: `the result of ${call.tool.spec.name}`,
    resource: `${call.tool.plugin}:unknown`,
    integrity: 'untrusted',
    confidentiality: 'private',
    assumed: true,
    author: null,
    why: 'the tool gave no labels',
    at: [],
    fields: [],
  };
  return { labels: [label], warnings: [`${call.tool.spec.name} gave no provenance labels: its whole result is taken as untrusted and private.`] };
}

/** A bot the operator names is trusted whatever the vendor said of its association. */
function withTrustedBots(labels: readonly ProvenanceLabel[], bots: ReadonlySet<string>): ProvenanceLabel[] {
  if (bots.size === 0) return [...labels];
  return labels.map((l) =>
    l.integrity === 'untrusted' && l.author !== null && bots.has(l.author.toLowerCase())
      ? { ...l, integrity: 'trusted', why: `${l.why}; ${l.author} is named in MCP_TRUSTED_BOTS` }
      : l,
  );
}

/** A label of the whole result (no object, no fields): for a tool's final text, the text itself. */
const isWhole = (l: ProvenanceLabel): boolean => l.at.length === 0 && l.fields.length === 0;

/** The one line that stands for withheld text: who wrote it, and where a trusted person reads it. */
export function withheldLine(label: ProvenanceLabel): string {
  const by = label.author === null ? 'an unknown author' : label.author;
  const where = label.url === undefined ? 'in the vendor' : `at ${label.url}`;
  return `[withheld under lockdown: untrusted text by ${by} (${label.why}); a trusted person can read it ${where}]`;
}

/** Whether the tool's envelope has room for the provenance summary beside `data` (or it has no envelope). */
const summaryFits = (tool: ToolSpec): boolean =>
  tool.envelope === undefined || Object.hasOwn((tool.envelope as { properties?: object }).properties ?? {}, 'provenance');

/**
 * The result with its labels applied: untrusted fields withheld (lockdown) or fenced, the summary beside
 * `data` (text and structured value), and every label in `_meta`. Runs before jq, so a projection picks a field
 * with its fence or its withheld line.
 */
export function labelledResult(call: Call, produced: Produced, provenance: Provenance, policy: LabelPolicy): Produced {
  const labels = withTrustedBots(provenance.labels, policy.trustedBots);
  const untrusted = labels.filter((l) => l.integrity === 'untrusted');
  const output = produced.output;
  let value = produced.value;
  let text = output.text;
  let fence: Fence | undefined;
  let withheld = 0;
  if (policy.lockdown) {
    for (const l of untrusted) {
      if (text !== undefined && isWhole(l)) {
        text = withheldLine(l);
        withheld++;
      } else if (l.fields.length > 0) {
        value = withFields(value, l.at, l.fields, () => withheldLine(l));
        withheld++;
      }
    }
  } else if (
    policy.fence &&
    untrusted.some((l) => (l.fields.length > 0 && fieldTexts(value, l.at, l.fields).length > 0) || (text !== undefined && isWhole(l)))
  ) {
    // The boundary is one no string of the result holds, fenced or not (a branch name, a label), nor its text.
    const shown = value;
    fence = newFence((b) => anyStringHolds(shown, b) || anyStringHolds(output.meta, b) || (text?.includes(b) ?? false));
    const f = fence;
    for (const l of untrusted) {
      if (text !== undefined && isWhole(l)) text = `Untrusted text is fenced: ${fenceStatement(f)}\n${fenced(text, f)}`;
      else value = withFields(value, l.at, l.fields, (t) => fenced(t, f));
    }
  }
  call.meta[PROVENANCE_META_KEY] = {
    fence: fence === undefined ? null : fenceStatement(fence),
    lockdown: policy.lockdown,
    labels: labels.map(({ at: _at, fields: _fields, ...shown }) => shown),
    ...(provenance.warnings.length > 0 ? { warnings: provenance.warnings } : {}),
  };
  for (const warning of provenance.warnings) call.logger.warn({ tool: call.tool.spec.name, requestId: call.requestId }, warning);
  // The summary states the fence (or what was withheld) in the result itself, before any text it fences, and how
  // many of its items are untrusted or private: the labels as a program reading the envelope sees them (each
  // item's label is in `_meta`). A result with nothing fenced or withheld keeps its text exactly as without
  // labels, which then travel in `_meta` alone.
  const summary = {
    fence: fence === undefined ? null : fenceStatement(fence),
    untrusted: untrusted.length,
    private: labels.filter((l) => l.confidentiality === 'private').length,
    ...(policy.lockdown ? { withheld } : {}),
  };
  const stated = fence !== undefined || withheld > 0;
  const meta = stated && text === undefined && summaryFits(call.tool.spec) ? { provenance: summary, ...output.meta } : output.meta;
  const changed = { ...output, ...(text === undefined ? {} : { text }), ...(meta === undefined ? {} : { meta }), ...(value === undefined ? {} : { value }) };
  return { ...produced, output: changed, value };
}
