import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { createRequire } from 'node:module';

/**
 * The YAML parser, loaded by the first document read: most servers read none (no policy file, a JSON config
 * or none), and it is a sixth of the bundled start-up code.
 */
export function yamlParser(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}

export type DocumentPath = ReadonlyArray<string | number>;

/** One thing wrong with a document, with the line it is on when known. */
export interface DocumentProblem {
  line?: number;
  message: string;
}

/** A configuration document that does not parse or does not match its schema; every problem is named. */
export class InvalidDocumentError extends Error {
  constructor(
    readonly label: string,
    readonly problems: readonly DocumentProblem[],
  ) {
    super(problems.map((p) => `${label}${p.line === undefined ? '' : ` line ${p.line}`}: ${p.message}`).join('\n'));
    this.name = 'InvalidDocumentError';
  }
}

export interface CheckedDocument<T> {
  value: T;
  /** The 1-based line of the value at `path`, for problems found after the schema check. */
  lineOf(path: DocumentPath): number | undefined;
}

const MAX_PROBLEMS = 10;

/**
 * Parses a YAML document (JSON is YAML) and checks it against a TypeBox schema, so an operator's mistake is
 * reported with the line it is on, not as a stack trace or an opaque path. Duplicate keys are refused.
 */
export function readYamlDocument<S extends TSchema>(text: string, schema: S, label: string): CheckedDocument<Static<S>> {
  const { LineCounter, parseDocument } = yamlParser();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new InvalidDocumentError(
      label,
      doc.errors.slice(0, MAX_PROBLEMS).map((e) => ({ line: e.linePos?.[0].line, message: firstLine(e.message) })),
    );
  }
  const value: unknown = doc.toJS() ?? {};
  const lineOf = (path: DocumentPath): number | undefined => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const validator = Compile(schema);
  if (!validator.Check(value)) {
    const problems = describeSchemaErrors(validator.Errors(value), value, lineOf);
    throw new InvalidDocumentError(label, problems.slice(0, MAX_PROBLEMS));
  }
  return { value: value as Static<S>, lineOf };
}

interface SchemaError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: unknown;
  message: string;
}

function describeSchemaErrors(errors: readonly SchemaError[], value: unknown, lineOf: (path: DocumentPath) => number | undefined): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const seen = new Set<string>();
  const alternatives = new Map<string, unknown[]>();
  const add = (path: DocumentPath, message: string): void => {
    const line = lineOf(path);
    const key = `${line}:${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push({ line, message });
    }
  };
  for (const e of errors) {
    const path = pointerPath(e.instancePath);
    const field = displayPath(path);
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'boolean') {
      add(path, `${field}: is not a known key`);
    } else if (e.keyword === 'additionalProperties') {
      continue; // each extra key was reported above, on its own line
    } else if (e.keyword === 'const' && e.schemaPath.includes('/anyOf/')) {
      alternatives.set(e.instancePath, [...(alternatives.get(e.instancePath) ?? []), params.allowedValue]);
    } else if (e.keyword === 'anyOf' && alternatives.has(e.instancePath)) {
      const options = alternatives
        .get(e.instancePath)!
        .map((v) => JSON.stringify(v))
        .join(', ');
      add(path, `${field}: must be one of ${options} (got ${shown(valueAt(value, path))})`);
    } else if (e.keyword === 'required') {
      for (const p of (params.requiredProperties as string[] | undefined) ?? []) add(path, `${field ? `${field}.` : ''}${p}: is required`);
    } else {
      add(path, `${field || '(document)'}: ${e.message} (got ${shown(valueAt(value, path))})`);
    }
  }
  return problems;
}

function pointerPath(pointer: string): Array<string | number> {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** `rules[3].match.tools`, as an operator reads it. */
export function displayPath(path: DocumentPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function valueAt(value: unknown, path: DocumentPath): unknown {
  let v = value;
  for (const part of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[part];
  }
  return v;
}

function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text = Array.isArray(v) ? 'a list' : v !== null && typeof v === 'object' ? 'a mapping' : JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
