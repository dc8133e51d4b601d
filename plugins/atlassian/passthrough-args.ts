import Type, { type TObject } from 'typebox';
import { OutputFormatArg } from '../../core/schema/common-args.js';

/** Per-product wording of the passthrough arguments; names and semantics are the reference servers'. */
export interface ArgDocs {
  /** What `path` is, with examples of the product's paths. */
  path: string;
  /** Example query parameters of the product (page size, filters). */
  queryExample: string;
  /** Example JMESPath projections on the product's response shapes. */
  jqExample: string;
  /** Example request body. */
  bodyExample: string;
}

export interface PassthroughArgs {
  /** `path`, `queryParams`, `jq`, `outputFormat`: the GET and DELETE tools. */
  read: TObject;
  /** The same plus a required JSON object `body`: the POST, PUT and PATCH tools. */
  write: TObject;
}

/**
 * The passthrough tools' input schemas. Unknown arguments are refused (the reference silently drops them): a
 * misspelt `queryParams` or `jq` would otherwise fetch the whole unfiltered resource without a word.
 */
export function passthroughArgs(docs: ArgDocs): PassthroughArgs {
  const common = {
    path: Type.String({ minLength: 1, description: docs.path }),
    queryParams: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: `Query parameters (string values), e.g. ${docs.queryExample}.`,
      }),
    ),
    jq: Type.Optional(
      Type.String({
        description: `JMESPath applied to the response: keep only what you need, e.g. ${docs.jqExample}.`,
      }),
    ),
    outputFormat: OutputFormatArg,
  };
  const body = Type.Record(Type.String(), Type.Unknown(), {
    description: `JSON request body, e.g. ${docs.bodyExample}.`,
  });
  return {
    read: Type.Object(common, { additionalProperties: false }),
    write: Type.Object({ ...common, body }, { additionalProperties: false }),
  };
}
