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
    path: Type.String({ minLength: 1, description: `${docs.path} A missing leading "/" is added.` }),
    queryParams: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: `Query parameters as string key-value pairs, appended to the path (after "&" when the path already has a query). Example: ${docs.queryExample}`,
      }),
    ),
    jq: Type.Optional(
      Type.String({
        description: `JMESPath expression (https://jmespath.org) applied to the response before rendering. Use it to keep only the fields you need: unfiltered responses are large. Example: ${docs.jqExample}. An invalid expression returns {_jqError, _originalData}.`,
      }),
    ),
    outputFormat: OutputFormatArg,
  };
  const body = Type.Record(Type.String(), Type.Unknown(), {
    description: `Request body, a JSON object sent as JSON; its shape depends on the endpoint. Example: ${docs.bodyExample}`,
  });
  return {
    read: Type.Object(common, { additionalProperties: false }),
    write: Type.Object({ ...common, body }, { additionalProperties: false }),
  };
}
