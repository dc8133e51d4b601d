import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import type { RecordedRequest } from '../../server/testing/mock-upstream.js';

/**
 * GitHub's published OpenAPI description of api.github.com (the @octokit/openapi package), as a judge of the
 * requests our tools send: each must be an operation of it (method and path template), with only the query
 * parameters that operation declares, parameter values its schemas accept, and a JSON body its requestBody
 * schema accepts. Only the api.github.com file is read (13 MB; the package's index loads 380 MB of variants).
 */

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: object;
}

interface Operation {
  operationId: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }>;
}

interface Description {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, object>;
}

interface Template {
  template: string;
  pattern: RegExp;
  names: string[];
  /** Literal segments: the most literal template wins (`/issues/comments` over `/issues/{issue_number}`). */
  literals: number;
}

/** What the description says of one recorded request: the operation it is, and every way it departs from it. */
export interface RequestVerdict {
  request: string;
  operationId?: string;
  problems: string[];
}

const DOCUMENT_ID = 'api.github.com';
/** A JSON pointer as a URI fragment: `~` and `/` escaped, then percent-encoded (templates hold `{` and `}`). */
const pointer = (...segments: string[]): string => `#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

/**
 * OpenAPI 3.0's `nullable: true` said in JSON Schema, in place: a `null` type (and enum value) beside the
 * declared ones, or `anyOf` with null for a schema without a type (`oneOf`, `allOf`), which ajv refuses.
 */
function nullableAsJsonSchema(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(nullableAsJsonSchema);
  const schema = node as Record<string, unknown>;
  for (const value of Object.values(schema)) nullableAsJsonSchema(value);
  if (typeof schema.nullable !== 'boolean') return;
  const nullable = schema.nullable;
  delete schema.nullable;
  if (!nullable) return;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  else if (schema.type === undefined) {
    const inner = { ...schema };
    for (const key of Object.keys(schema)) if (key !== 'description') delete schema[key];
    schema.anyOf = [inner, { type: 'null' }];
  }
}

export class GithubOpenApi {
  private readonly templates: Template[];
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  /** Query and path values arrive as strings: checked as GitHub reads them, numbers from digits. */
  private readonly coercing = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false, coerceTypes: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor(private readonly document: Description) {
    nullableAsJsonSchema(document);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.coercing.addSchema(document, DOCUMENT_ID);
    this.templates = Object.keys(document.paths).map((template) => {
      const names: string[] = [];
      // A file path parameter (`/contents/{path}`) spans segments; every other parameter is one segment.
      const source = template
        .replace(/[.+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), name === 'path' ? '(.+)' : '([^/]+)'));
      return { template, pattern: new RegExp(`^${source}$`), names, literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length };
    });
  }

  static load(): GithubOpenApi {
    const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
    return new GithubOpenApi(JSON.parse(readFileSync(file, 'utf8')) as Description);
  }

  /** The version of the description, for messages. */
  get version(): string {
    return this.document.info.version;
  }

  /** Judges one request as the mock recorded it. */
  check(request: Pick<RecordedRequest, 'method' | 'path' | 'query' | 'body'>): RequestVerdict {
    const method = request.method.toLowerCase();
    const verdict: RequestVerdict = {
      request: `${request.method} ${request.path}${request.query.size > 0 ? `?${request.query.toString()}` : ''}`,
      problems: [],
    };
    const matches = this.templates
      .map((t) => ({ t, match: t.pattern.exec(request.path) }))
      .filter((m) => m.match !== null && this.document.paths[m.t.template]![method] !== undefined)
      .sort((a, b) => b.t.literals - a.t.literals);
    const found = matches[0];
    if (found === undefined) {
      verdict.problems.push(`no operation of GitHub's description is ${request.method} on a path like ${request.path}`);
      return verdict;
    }
    const { template, names } = found.t;
    const operation = this.document.paths[template]![method]!;
    verdict.operationId = operation.operationId;
    const parameters = (operation.parameters ?? []).map((p) => this.resolve<Parameter>(p));

    names.forEach((name, i) => {
      const declared = parameters.find((p) => p.in === 'path' && p.name === name);
      this.checkValue(verdict, `path parameter ${name}`, declared, decodeURIComponent(found.match![i + 1]!));
    });
    for (const [name, value] of request.query) {
      const declared = parameters.find((p) => p.in === 'query' && p.name === name);
      if (declared === undefined) verdict.problems.push(`query parameter "${name}" is not declared by ${operation.operationId} (${template})`);
      else this.checkValue(verdict, `query parameter ${name}`, declared, value);
    }

    const json = operation.requestBody?.content['application/json'];
    if (request.body === '') {
      if (json !== undefined && (operation.requestBody as { required?: boolean }).required === true)
        verdict.problems.push(`${operation.operationId} requires a JSON body; none was sent`);
    } else if (json === undefined) {
      verdict.problems.push(`${operation.operationId} takes no JSON body; one was sent`);
    } else {
      const validate = this.validator(this.ajv, pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema'));
      if (!validate(JSON.parse(request.body))) verdict.problems.push(`body: ${this.ajv.errorsText(validate.errors)}`);
    }
    return verdict;
  }

  /** Whether `body` is what the description says the operation answers with `status` (a fixture's check). */
  responseProblems(method: string, template: string, status: number, body: unknown): string | undefined {
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    if (operation === undefined) return `no operation ${method} ${template}`;
    const declared = operation.responses[String(status)];
    if (declared === undefined) return `${operation.operationId} declares no ${status} response`;
    if (declared.content?.['application/json'] === undefined) return undefined;
    const validate = this.validator(
      this.ajv,
      pointer('paths', template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema'),
    );
    return validate(body) ? undefined : this.ajv.errorsText(validate.errors);
  }

  private checkValue(verdict: RequestVerdict, what: string, declared: Parameter | undefined, value: string): void {
    if (declared?.schema === undefined) return;
    const validate = this.validatorOf(declared.schema);
    if (!validate({ value })) verdict.problems.push(`${what} ${JSON.stringify(value)}: ${this.coercing.errorsText(validate.errors)}`);
  }

  /** A parameter schema, wrapped so coercion can replace the value (a lone string cannot be coerced in place). */
  private validatorOf(schema: object): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      validate = this.coercing.compile({ type: 'object', properties: { value: this.inlined(schema) }, required: ['value'] });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private inlined(schema: object): object {
    const ref = (schema as { $ref?: string }).$ref;
    return ref === undefined ? schema : { $ref: `${DOCUMENT_ID}${ref}` };
  }

  private validator(ajv: Ajv, fragment: string): ValidateFunction {
    const key = `${fragment}`;
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}${fragment}` });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private resolve<T>(value: T | { $ref: string }): T {
    const ref = (value as { $ref?: string }).$ref;
    if (ref === undefined) return value as T;
    let node: unknown = this.document;
    for (const segment of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node as T;
  }
}
