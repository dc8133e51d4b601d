import Type, { type Static } from 'typebox';

/** Settings of the provenance plugin (docs/untrusted-content.md#settings). */
export const ProvenanceSettings = Type.Object({
  MCP_LOCKDOWN: Type.Boolean({
    default: false,
    description:
      'Withhold untrusted people-written text from results, leaving one line that says who wrote it and where a trusted person reads it. X-MCP-Lockdown: true asks for it per request.',
  }),
  MCP_FENCE: Type.Boolean({
    default: true,
    description: 'Set untrusted text that is shown inside a fence whose boundary is random per call and stated in the result.',
  }),
  MCP_TRUSTED_BOTS: Type.String({
    default: '',
    description: 'Comma-separated bot accounts whose text is trusted whatever the vendor says of them (dependabot[bot], renovate[bot]).',
  }),
});

export type ProvenanceConfig = Static<typeof ProvenanceSettings>;

/** The trusted bots as a set of lower-case names. */
export const trustedBots = (list: string): ReadonlySet<string> =>
  new Set(
    list
      .split(',')
      .map((b) => b.trim().toLowerCase())
      .filter((b) => b !== ''),
  );
