import { createRequire } from 'node:module';
import type { GraphQLError, parse, print, visit } from 'graphql';

/** What the product uses of the `graphql` package beyond its Kind names: parsing, printing and walking documents. */
export interface GraphqlLanguage {
  parse: typeof parse;
  print: typeof print;
  visit: typeof visit;
  GraphQLError: typeof GraphQLError;
}

let loaded: GraphqlLanguage | undefined;

/**
 * graphql's parser, printer and visitor, loaded from the installed package by the first GraphQL document a server
 * reads (a GraphQL tool's call, or a tool that declares one), as the Markdown converters are (markup-libraries.ts):
 * no server loads them to start, and the callers stay synchronous. The Kind names are imported as usual: a few
 * constants, bundled.
 */
export function graphqlLanguage(): GraphqlLanguage {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    const language = require('graphql/language/index.js') as Pick<GraphqlLanguage, 'parse' | 'print' | 'visit'>;
    const { GraphQLError: errorClass } = require('graphql/error/index.js') as Pick<GraphqlLanguage, 'GraphQLError'>;
    loaded = { parse: language.parse, print: language.print, visit: language.visit, GraphQLError: errorClass };
  }
  return loaded;
}
