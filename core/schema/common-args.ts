import Type from 'typebox';

/** `jq`: the optional JMESPath projection every vendor tool accepts. */
export const JqArg = Type.Optional(
  Type.String({
    description: 'JMESPath projection.',
  }),
);

/**
 * `outputFormat`: TOON (default, compact) or pretty JSON. A string enum: it says the same as a union of constants in
 * half the tokens, and `type: "string"` keeps it the argument the reference Atlassian servers declare.
 */
export const OutputFormatArg = Type.Optional(Type.Unsafe<'toon' | 'json'>({ type: 'string', enum: ['toon', 'json'], description: 'Default toon.' }));

/** The two rendering arguments, to spread into a tool's input object. */
export const renderingArgs = { jq: JqArg, outputFormat: OutputFormatArg };

/**
 * Any JSON value, each kind typed: what a free-form argument holds (a Jira field's value, a GraphQL variable). The
 * empty schema `{}` says the same, but strict clients and checkers (the MCP Inspector's `--strict`, Claude Code's
 * tool validation) refuse a schema without a `type`, so the kinds are listed.
 */
export function anyJsonValue(description?: string) {
  return Type.Union(
    [
      Type.String(),
      Type.Number(),
      Type.Boolean(),
      Type.Null(),
      Type.Unsafe<unknown[]>({ type: 'array' }),
      Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
    ],
    description === undefined ? {} : { description },
  );
}
