import Type from 'typebox';

/** `jq`: the optional JMESPath projection every vendor tool accepts. */
export const JqArg = Type.Optional(
  Type.String({
    description: 'JMESPath expression applied to the response before rendering, to keep only what you need (e.g. "workflow_runs[*].{id: id, status: status}"). Empty means none.',
  }),
);

/** `outputFormat`: TOON (default, compact) or pretty JSON. */
export const OutputFormatArg = Type.Optional(
  Type.Union([Type.Literal('toon'), Type.Literal('json')], {
    description: 'Output format: "toon" (default, token-efficient) or "json".',
  }),
);

/** The two rendering arguments, to spread into a tool's input object. */
export const renderingArgs = { jq: JqArg, outputFormat: OutputFormatArg };
