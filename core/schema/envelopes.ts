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

const Data = Type.Unknown({ description: 'The upstream body after the optional jq projection; null when incomplete.' });

/** GitHub list tools: `{data, nextPage, incomplete?}`. */
export const PagedEnvelope = Type.Object(
  {
    data: Data,
    nextPage: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The page to request next, or null when there is none.' }),
    incomplete: Type.Optional(Incomplete),
  },
  { additionalProperties: false },
);

/** circleci_get: `{data, cache: {hit, ageMs, fetchedAt}, incomplete?}`. */
export const CircleCiReadEnvelope = Type.Object(
  {
    data: Data,
    cache: Type.Object(
      {
        hit: Type.Boolean(),
        ageMs: Type.Integer({ minimum: 0 }),
        fetchedAt: Type.String({ description: 'ISO 8601 time of the upstream fetch.' }),
      },
      { additionalProperties: false },
    ),
    incomplete: Type.Optional(Incomplete),
  },
  { additionalProperties: false },
);

/** jira_get, conf_get, bb_get: `{data, incomplete?}`. */
export const AtlassianReadEnvelope = Type.Object(
  {
    data: Data,
    incomplete: Type.Optional(Incomplete),
  },
  { additionalProperties: false },
);

/** Any read whose result is the upstream body alone, as for the Atlassian reads: `{data, incomplete?}`. */
export const ReadEnvelope = AtlassianReadEnvelope;
