import Type from 'typebox';

/**
 * The structured-output envelopes of structured-output.md: JSON Schema 2020-12, object-rooted, `anyOf` never
 * `oneOf`, every key required that the contract always sends, `data` with no declared type (jq may project
 * it to any JSON value), `incomplete` only when `data` is not the whole result.
 */
export const Incomplete = Type.Object(
  {
    reason: Type.Union([Type.Literal('size'), Type.Literal('unavailable')]),
    bytes: Type.Integer({ minimum: 0 }),
    limitBytes: Type.Integer({ minimum: 0 }),
    artifactId: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  },
  { additionalProperties: false, description: 'Present only when data is not the whole result; read the whole value with artifact_read.' },
);

/**
 * What a result that fences or withholds people-written text says of it (docs/untrusted-content.md): the fence
 * set around untrusted text in `data` (null when none is), how many of its items are untrusted and how many
 * private, and under lockdown how many texts were withheld. Per-item labels are in `_meta`.
 */
export const ProvenanceSummary = Type.Optional(
  Type.Object(
    {
      fence: Type.Union([Type.String(), Type.Null()]),
      untrusted: Type.Integer({ minimum: 0 }),
      private: Type.Integer({ minimum: 0 }),
      withheld: Type.Optional(Type.Integer({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
);

/**
 * What a result says of the items an allowlist left out of `data` (docs/policy.md#allowlists): how many, the
 * settings whose lists left them out, and the same in a sentence. Present only when some were left out.
 */
export const AllowlistSummary = Type.Optional(
  Type.Object(
    {
      leftOut: Type.Integer({ minimum: 1 }),
      settings: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
      note: Type.String(),
    },
    { additionalProperties: false, description: 'Present only when items outside an MCP_ALLOW_* list were left out of data.' },
  ),
);

/** `data` of every envelope: no declared type (jq may project the body to any JSON value). */
export const EnvelopeData = Type.Unknown({ description: 'The upstream body after the optional jq projection; null when incomplete.' });
const Data = EnvelopeData;

/** Lists paged by number (GitHub, GitLab): `{data, nextPage, incomplete?}`. */
export const PagedEnvelope = Type.Object(
  {
    data: Data,
    nextPage: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The page to request next, or null when there is none.' }),
    incomplete: Type.Optional(Incomplete),
    provenance: ProvenanceSummary,
    allowlist: AllowlistSummary,
  },
  { additionalProperties: false },
);

/**
 * Lists paged by an opaque cursor (Sentry, Slack, Stripe, Linear, GitLab keyset): `{data, nextCursor,
 * incomplete?}`, nextCursor the cursor to pass for the next page, null on the last page.
 */
export const CursorEnvelope = Type.Object(
  {
    data: Data,
    nextCursor: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
      description: 'The cursor to request the next page with, or null when there is none.',
    }),
    incomplete: Type.Optional(Incomplete),
    provenance: ProvenanceSummary,
    allowlist: AllowlistSummary,
  },
  { additionalProperties: false },
);

/** Any read whose result is the upstream body alone (jira_get, conf_get, bb_get): `{data, incomplete?}`. */
export const ReadEnvelope = Type.Object(
  {
    data: Data,
    incomplete: Type.Optional(Incomplete),
    provenance: ProvenanceSummary,
    allowlist: AllowlistSummary,
  },
  { additionalProperties: false },
);
