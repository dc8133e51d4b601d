import { expect } from 'chai';
import { analyseDocument, GraphqlDocumentError, MAX_DOCUMENT_BYTES } from '../../../core/http/graphql-document.js';
import { measureOperation } from '../../../core/http/graphql-shape.js';

/** The message of what analysing (or measuring) a document throws. */
function problemOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(GraphqlDocumentError);
    return (error as Error).message;
  }
  throw new Error('no problem was found');
}

const LIMITS = { maxDepth: 5, maxFields: 20, introspection: false };

describe('analyseDocument: what a GraphQL document asks for', () => {
  it('takes the operation type, its name and its root fields, by field name and not alias', () => {
    const doc = analyseDocument('query Viewer { me: viewer { login } rateLimit { remaining } }');
    expect(doc.facts).to.deep.equal({ operation: 'query', name: 'Viewer', fields: ['viewer', 'rateLimit'] });
  });

  it('reads a shorthand document as an anonymous query', () => {
    expect(analyseDocument('{ viewer { login } }').facts).to.deep.equal({ operation: 'query', name: null, fields: ['viewer'] });
  });

  it('expands fragments and inline fragments at the root: a mutation cannot hide its field in one', () => {
    const doc = analyseDocument(
      'mutation M { ...Writes ... on Mutation { closeIssue(input: {}) { clientMutationId } } } fragment Writes on Mutation { deleteRef(input: {}) { clientMutationId } }',
    );
    expect(doc.facts).to.deep.equal({ operation: 'mutation', name: 'M', fields: ['deleteRef', 'closeIssue'] });
  });

  it('picks the operation named by operationName, and says which names there are when it is missing or unknown', () => {
    const text = 'query A { viewer { login } } mutation B { addStar(input: {}) { clientMutationId } }';
    expect(analyseDocument(text, 'B').facts).to.deep.equal({ operation: 'mutation', name: 'B', fields: ['addStar'] });
    expect(problemOf(() => analyseDocument(text))).to.equal('The GraphQL document holds 2 operations (A, B): give operationName to say which one to run.');
    expect(problemOf(() => analyseDocument(text, 'C'))).to.equal('The GraphQL document has no operation named "C"; it holds A, B.');
  });

  it('lists every operation type the document holds, so a mutation beside the chosen query is seen', () => {
    const doc = analyseDocument('query A { viewer { login } } mutation B { addStar(input: {}) { clientMutationId } }', 'A');
    expect(doc.types).to.deep.equal(['query', 'mutation']);
  });

  it('gives the same canonical form to documents that differ only in layout and comments', () => {
    const a = analyseDocument('query   A{viewer{login}}');
    const b = analyseDocument('# who am I\nquery A {\n  viewer {\n    login\n  }\n}\n');
    expect(a.canonical).to.equal(b.canonical);
  });

  it('refuses a subscription, a syntax error (with where it is), a document without an operation and a schema definition', () => {
    expect(problemOf(() => analyseDocument('subscription S { issueUpdated { id } }'))).to.equal(
      'The GraphQL document holds a subscription (S); subscriptions are not supported: send a query or a mutation.',
    );
    expect(problemOf(() => analyseDocument('query { viewer { login }'))).to.match(
      /^The GraphQL document does not parse: Syntax Error: Expected Name, found <EOF>\. \(line 1, column 25\)$/,
    );
    expect(problemOf(() => analyseDocument('fragment F on User { login }'))).to.equal(
      'The GraphQL document holds no operation: send a query such as { viewer { login } }.',
    );
    expect(problemOf(() => analyseDocument('type Query { x: Int }'))).to.equal(
      'The GraphQL document holds a type system definition (ObjectTypeDefinition); send only operations and fragments.',
    );
  });

  it('refuses a subscription beside a query even when operationName picks the query (no operation of the document is one)', () => {
    const text = 'query Viewer { viewer { login } } subscription Watch { issueUpdated { id } }';
    expect(problemOf(() => analyseDocument(text, 'Viewer'))).to.contain('subscription (Watch)');
    expect(problemOf(() => analyseDocument('subscription { issueUpdated { id } } query Viewer { viewer { login } }', 'Viewer'))).to.contain(
      'subscriptions are not supported',
    );
  });

  it('refuses a spread of a fragment the document does not define, and a fragment cycle, naming the fragments', () => {
    expect(problemOf(() => analyseDocument('{ ...Missing }'))).to.equal('The GraphQL document spreads fragment "Missing", which it does not define.');
    expect(problemOf(() => analyseDocument('{ viewer { ...A } } fragment A on User { ...B } fragment B on User { ...A }'))).to.equal(
      "The GraphQL document's fragments spread each other in a cycle (A -> B -> A); fragments cannot be recursive.",
    );
  });

  it('refuses a document past the token limit before building it', () => {
    const wide = `{ ${Array.from({ length: 20_001 }, (_, i) => `f${i}`).join(' ')} }`;
    // 128,900 bytes: past the default byte bound too, which is set aside here to reach the token count.
    expect(problemOf(() => analyseDocument(wide, undefined, { maxBytes: 200_000 }))).to.equal(
      'The GraphQL document has more than 20000 tokens; send a shorter one.',
    );
  });

  it('refuses a document past its byte bound (100 KiB by default) before parsing it: comments count, which tokens do not', () => {
    const padded = `# ${'x'.repeat(MAX_DOCUMENT_BYTES)}\n{ viewer { login } }`;
    expect(problemOf(() => analyseDocument(padded))).to.equal(
      'The GraphQL document is 102423 bytes, more than the 102400 a document may have, comments and layout included; send a shorter one.',
    );
    expect(problemOf(() => analyseDocument('{ viewer { login } } # ünïcödé', undefined, { maxBytes: 30, setting: 'ACME_GRAPHQL_MAX_BYTES' }))).to.equal(
      'The GraphQL document is 34 bytes, more than the 30 a document may have (ACME_GRAPHQL_MAX_BYTES), comments and layout included; send a shorter one.',
    );
    expect(analyseDocument(`{ viewer { login } } # ${'x'.repeat(MAX_DOCUMENT_BYTES - 30)}`).canonical).to.equal('{\n  viewer {\n    login\n  }\n}');
  });
});

describe('measureOperation: the shape guards of a document the caller writes', () => {
  it('counts depth from the root fields and every field, aliases included, within the limits', () => {
    const doc = analyseDocument('{ a: viewer { login } b: viewer { login name } }');
    expect(measureOperation(doc, LIMITS)).to.deep.equal({ depth: 2, fields: 5 });
  });

  it('expands each fragment spread every time it appears', () => {
    const text = '{ viewer { ...Who } user(login: "x") { ...Who } } fragment Who on User { login name }';
    expect(measureOperation(analyseDocument(text), LIMITS)).to.deep.equal({ depth: 2, fields: 6 });
  });

  it('refuses a document deeper than maxDepth, naming the limit and the setting it comes from', () => {
    const deep = '{ a { b { c { d { e { f } } } } } }';
    expect(problemOf(() => measureOperation(analyseDocument(deep), LIMITS))).to.equal(
      'The GraphQL document nests fields deeper than 5 levels (maxDepth). Ask for fewer levels, or split the query.',
    );
    expect(problemOf(() => measureOperation(analyseDocument(deep), { ...LIMITS, settings: { maxDepth: 'ACME_GRAPHQL_MAX_DEPTH' } }))).to.contain(
      'deeper than 5 levels (ACME_GRAPHQL_MAX_DEPTH)',
    );
  });

  it('refuses more fields than maxFields, counting aliases and fragment spreads, and stops counting there', () => {
    const aliases = `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: viewer`).join(' ')} }`;
    expect(problemOf(() => measureOperation(analyseDocument(aliases), LIMITS))).to.equal(
      'The GraphQL document asks for more than 20 fields (maxFields; aliases and each fragment spread count). Ask for fewer fields, or page.',
    );
    // Each level doubles the fields: 2^30 once expanded, refused after counting a few more than the limit.
    const levels = Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const bomb = `{ ...F0 } ${levels} fragment F30 on Query { viewer }`;
    expect(problemOf(() => measureOperation(analyseDocument(bomb), LIMITS))).to.contain('more than 20 fields');
  });

  it('refuses introspection unless the limits allow it, and lets __typename through', () => {
    expect(problemOf(() => measureOperation(analyseDocument('{ __schema { types { name } } }'), LIMITS))).to.equal(
      'The GraphQL document asks for introspection (__schema); this tool does not allow it. Ask for the data itself.',
    );
    expect(problemOf(() => measureOperation(analyseDocument('{ viewer { ...T } } fragment T on User { __type(name: "User") { name } }'), LIMITS))).to.contain(
      'introspection (__type)',
    );
    expect(measureOperation(analyseDocument('{ __schema { queryType { name } } }'), { ...LIMITS, introspection: true })).to.deep.equal({ depth: 3, fields: 3 });
    expect(measureOperation(analyseDocument('{ viewer { __typename login } }'), LIMITS)).to.deep.equal({ depth: 2, fields: 3 });
  });

  it('walks inline fragments: introspection inside one is refused, wherever it sits', () => {
    for (const text of [
      '{ ... on Query { __schema { types { name } } } }',
      '{ viewer { ... on User { __type(name: "User") { name } } } }',
      '{ ... @include(if: true) { ... on Query { __schema { queryType { name } } } } }',
    ]) {
      expect(
        problemOf(() => measureOperation(analyseDocument(text), LIMITS)),
        text,
      ).to.match(/^The GraphQL document asks for introspection \(__(schema|type)\)/);
    }
  });

  it('counts the fields and levels inside inline fragments against maxDepth and maxFields', () => {
    expect(measureOperation(analyseDocument('{ viewer { ... on User { login name } } }'), LIMITS)).to.deep.equal({ depth: 2, fields: 3 });
    const deep = '{ a { ... on A { b { ... on B { c { ... on C { d { e { f } } } } } } } } }';
    expect(problemOf(() => measureOperation(analyseDocument(deep), LIMITS))).to.contain('deeper than 5 levels');
    const wide = `{ ... on Query { ${Array.from({ length: 21 }, (_, i) => `a${i}: viewer`).join(' ')} } }`;
    expect(problemOf(() => measureOperation(analyseDocument(wide), LIMITS))).to.contain('more than 20 fields');
  });
});
