import Type from 'typebox';

/** `jq`: the optional JMESPath projection every vendor tool accepts. */
export const JqArg = Type.Optional(
  Type.String({
    description: 'JMESPath projection of the response.',
  }),
);

/** `outputFormat`: TOON (default, compact) or pretty JSON. An enum: it says the same as a union of constants in half the tokens. */
export const OutputFormatArg = Type.Optional(Type.Enum(['toon', 'json'], { description: 'Default toon (compact); json: pretty JSON.' }));

/** The two rendering arguments, to spread into a tool's input object. */
export const renderingArgs = { jq: JqArg, outputFormat: OutputFormatArg };
