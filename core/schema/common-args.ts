import Type from 'typebox';

/** `jq`: the optional JMESPath projection every vendor tool accepts. */
export const JqArg = Type.Optional(
  Type.String({
    description: 'JMESPath applied to the response before rendering: keep only what you need.',
  }),
);

/** `outputFormat`: TOON (default, compact) or pretty JSON. */
export const OutputFormatArg = Type.Optional(
  Type.Union([Type.Literal('toon'), Type.Literal('json')], {
    description: '"toon" (default, compact) or "json".',
  }),
);

/** The two rendering arguments, to spread into a tool's input object. */
export const renderingArgs = { jq: JqArg, outputFormat: OutputFormatArg };
