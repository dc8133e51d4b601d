import { isDeepStrictEqual } from 'node:util';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { standardCorpus, STANDARD_PROJECTIONS, type ConformanceCase, type Projection } from './conformance-corpus.js';
import type { MockUpstream } from './mock-upstream.js';
import { checkOutputSchema, schemaArguments } from './output-schema-checks.js';

/**
 * What the suite needs of a client: the official SDK client (v2, of either protocol era, or the 1.x line),
 * which validates each result against the tool's `outputSchema` itself.
 */
export interface ConformanceClient {
  listTools(): Promise<{ tools: Tool[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

export interface ConformanceOptions {
  /** The official SDK client, connected to the server under test (it validates each result itself). */
  client: ConformanceClient;
  /** The loopback mocks the server's vendors point at; each serves the case's answer for every request. */
  upstreams: readonly MockUpstream[];
  corpus?: readonly ConformanceCase[];
  projections?: readonly Projection[];
  /** Arguments for a tool, when those derived from its input schema do not reach a successful call. */
  argsFor?(tool: Tool): Record<string, unknown> | undefined;
  /** Tools to leave out (by name). */
  skip?(tool: Tool): boolean;
}

export interface ToolTally {
  calls: number;
  structured: number;
  errors: number;
  spilled: number;
  /** The first error result's text, to tell why a tool never succeeded. */
  firstError?: string;
}

export interface ConformanceReport {
  /** Every tool that advertised `outputSchema`, as discovered from tools/list. */
  tools: string[];
  tally: Record<string, ToolTally>;
  /** One line per broken promise; empty when the server conforms. */
  failures: string[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const TRUNCATION_MARKER = '\n---\n## Response Truncated';

/**
 * The structured-output conformance suite (docs/structured-output.md). It discovers every tool that advertises
 * `outputSchema` from tools/list, checks each schema (object-rooted, anyOf never oneOf, no `$schema`, not
 * vacuous), then calls each tool over the corpus and every projection. Each result must be accepted by the
 * official SDK client (which validates against `outputSchema` once it has listed the tools) and by an
 * independent JSON Schema 2020-12 validator, and must keep the contract: error results carry no structured
 * value; `data` is null exactly when `incomplete` is present; an oversized value reads back whole through
 * `artifact_read`; with JSON text and no truncation the text is the structured value (or, for tools without
 * metadata, its `data`). Failures are collected, not thrown, so one run reports everything.
 */
export async function checkStructuredConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const { tools } = await options.client.listTools();
  const schemaTools = tools.filter((t) => t.outputSchema !== undefined && !(options.skip?.(t) ?? false));
  const report: ConformanceReport = { tools: schemaTools.map((t) => t.name), tally: {}, failures: [] };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const tool of schemaTools) {
    const fail = (what: string): void => void report.failures.push(`${tool.name}: ${what}`);
    const tally: ToolTally = { calls: 0, structured: 0, errors: 0, spilled: 0 };
    report.tally[tool.name] = tally;
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(tool.outputSchema!);
    } catch (error) {
      fail(`outputSchema does not compile as JSON Schema 2020-12: ${(error as Error).message}`);
      continue;
    }
    const samples: Record<string, unknown>[] = [];
    const args = options.argsFor?.(tool) ?? schemaArguments(tool.inputSchema);
    const acceptsJq = Object.prototype.hasOwnProperty.call(tool.inputSchema.properties ?? {}, 'jq');
    const projections = acceptsJq ? (options.projections ?? STANDARD_PROJECTIONS) : [{}];
    for (const entry of options.corpus ?? standardCorpus()) {
      for (const projection of projections) {
        const where = `${entry.name} ${JSON.stringify(projection)}`;
        for (const upstream of options.upstreams) {
          upstream.reset();
          for (const method of METHODS) upstream.on(method, /.*/, entry.reply);
        }
        tally.calls++;
        let result: CallToolResult;
        try {
          result = (await options.client.callTool({ name: tool.name, arguments: { ...args, ...projection } })) as CallToolResult;
        } catch (error) {
          fail(`${where}: the SDK client rejected the result: ${(error as Error).message}`);
          continue;
        }
        const problems = await checkResult(options.client, tool, validate, result, projection, tally);
        for (const p of problems) fail(`${where}: ${p}`);
        const sc = result.structuredContent as Record<string, unknown> | undefined;
        if (!result.isError && problems.length === 0 && sc?.incomplete === undefined) samples.push(sc!);
      }
    }
    for (const p of checkOutputSchema(tool.outputSchema!, validate, samples[0])) fail(p);
    if (tally.structured === 0) fail(`no call succeeded with a structured value (first error: ${tally.firstError ?? 'none'}); pass argsFor`);
  }
  return report;
}

async function checkResult(
  client: ConformanceClient,
  tool: Tool,
  validate: ValidateFunction,
  result: CallToolResult,
  projection: Projection,
  tally: ToolTally,
): Promise<string[]> {
  const text = result.content[0]?.type === 'text' ? result.content[0].text : undefined;
  if (result.isError) {
    tally.errors++;
    tally.firstError ??= text;
    return result.structuredContent === undefined ? [] : ['an error result carries structuredContent'];
  }
  const sc = result.structuredContent as Record<string, unknown> | undefined;
  // The contract's envelopes are objects, in every revision (2026-07-28 would allow any JSON value).
  if (sc === undefined || sc === null || typeof sc !== 'object' || Array.isArray(sc)) return ['a successful result has no object structuredContent'];
  tally.structured++;
  if (!validate(sc)) return [`the 2020-12 validator rejects structuredContent: ${JSON.stringify(validate.errors)}`];
  if (!('data' in sc)) return ['structuredContent has no data'];
  const incomplete = sc.incomplete as { reason: string; bytes: number; limitBytes: number; artifactId: string | null } | undefined;
  if (incomplete !== undefined) {
    if (sc.data !== null) return ['incomplete is present but data is not null'];
    if (incomplete.reason === 'unavailable') return ['incomplete.reason is "unavailable": the tool produced no value (a server defect)'];
    tally.spilled++;
    if (!(incomplete.bytes > incomplete.limitBytes)) return [`incomplete.bytes ${incomplete.bytes} does not exceed limitBytes ${incomplete.limitBytes}`];
    if (incomplete.artifactId === null) return ['the oversized value was not saved (artifactId null)'];
    return checkArtifact(client, validate, sc, incomplete.artifactId, incomplete.bytes);
  }
  if (projection.outputFormat !== 'json' || text === undefined || text.includes(TRUNCATION_MARKER)) return [];
  // Optional members (`provenance` when the result states a fence, `allowlist` when items were left out) stand
  // beside `data` in the text only when the result has them (untrusted-content.md, policy.md).
  const required = new Set((tool.outputSchema!.required ?? []) as string[]);
  const metaKeys = Object.keys((tool.outputSchema!.properties ?? {}) as object).filter(
    (k) => k !== 'data' && k !== 'incomplete' && (required.has(k) || Object.hasOwn(sc, k)),
  );
  const expected = metaKeys.length === 0 ? sc.data : sc;
  if (typeof expected === 'string' && text === expected) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [`the JSON text does not parse, and is not the structured value: ${text.slice(0, 80)}`];
  }
  return isDeepStrictEqual(parsed, expected) ? [] : [`JSON.parse(text) differs from structuredContent${metaKeys.length === 0 ? '.data' : ''}`];
}

/** Reads an artifact back with `artifact_read` and checks it is the whole value the result left out. */
async function checkArtifact(
  client: ConformanceClient,
  validate: ValidateFunction,
  sc: Record<string, unknown>,
  artifactId: string,
  bytes: number,
): Promise<string[]> {
  const chunks: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const read = (await client.callTool({ name: 'artifact_read', arguments: { artifactId, offset } })) as CallToolResult;
    const first = read.content[0];
    if (read.isError || first?.type !== 'text') return [`artifact_read failed at offset ${offset}: ${first?.type === 'text' ? first.text : 'no text'}`];
    const chunk = JSON.parse(first.text) as { offset: number; nextOffset: number; eof: boolean; data: string; bytes: number; mimeType: string };
    if (chunk.mimeType !== 'application/json' || chunk.bytes !== bytes || chunk.offset !== offset)
      return [`artifact_read answered ${first.text.slice(0, 120)}`];
    if (!chunk.eof && chunk.nextOffset <= offset) return ['artifact_read did not advance'];
    chunks.push(Buffer.from(chunk.data, 'base64'));
    offset = chunk.nextOffset;
    eof = chunk.eof;
  }
  const whole = Buffer.concat(chunks);
  if (whole.length !== bytes) return [`the artifact holds ${whole.length} bytes, incomplete.bytes says ${bytes}`];
  const value = JSON.parse(whole.toString('utf8')) as Record<string, unknown>;
  const { data: _data, incomplete: _incomplete, ...meta } = sc;
  const { data: _full, ...savedMeta } = value;
  const problems: string[] = [];
  if (!validate(value)) problems.push(`the artifact's value does not validate: ${JSON.stringify(validate.errors)}`);
  if ('incomplete' in value || value.data === null) problems.push('the artifact does not hold the complete value');
  if (!isDeepStrictEqual(meta, savedMeta)) problems.push('the artifact and the result disagree on the metadata');
  return problems;
}
