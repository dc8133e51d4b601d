import Type from 'typebox';
import { AllowlistSummary, EnvelopeData, Incomplete } from '../../core/schema/envelopes.js';

/** circleci_get: `{data, cache: {hit, ageMs, fetchedAt}, incomplete?}` (structured-output.md). */
export const CircleCiReadEnvelope = Type.Object(
  {
    data: EnvelopeData,
    cache: Type.Object(
      {
        hit: Type.Boolean(),
        ageMs: Type.Integer({ minimum: 0 }),
        fetchedAt: Type.String({ description: 'ISO 8601 time of the upstream fetch.' }),
      },
      { additionalProperties: false },
    ),
    incomplete: Type.Optional(Incomplete),
    allowlist: AllowlistSummary,
  },
  { additionalProperties: false },
);
