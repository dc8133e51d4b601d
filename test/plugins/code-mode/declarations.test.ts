import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { answerHead, declareTool, GLOBALS_NOTE, SANDBOX_GLOBALS } from '../../../plugins/code-mode/declarations.js';
import { typeOf } from '../../../plugins/code-mode/schema-types.js';
import { compileProgram } from '../../../plugins/code-mode/program-compiler.js';
import { VENDORS } from '../../../server/bootstrap/builtin-plugins.js';
import { standardCorpus } from '../../../server/testing/conformance-corpus.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { schemaArguments } from '../../../server/testing/output-schema-checks.js';
import { TOKENS } from '../../../core/tokens.js';
import type { ToolCatalogue } from '../../../core/plugin/tool-catalogue.js';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import type { Client } from '@modelcontextprotocol/client';
import { readArtifact } from '../../support/artifact-reader.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import {
  BITBUCKET_DOWNLOADS,
  conformanceArgsFor,
  CONFLUENCE_SPACES,
  GITHUB_CHECK_RUNS,
  GITHUB_GRAPHQL,
  JIRA_TRANSITIONS,
} from '../structured/conformance-server.js';
import { vendorSettingsAgainst } from '../structured/vendor-env.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('code mode: declarations from the schemas', () => {
  it('types what TypeBox writes: unions, literals, records, arrays, nullable values, and any JSON value', () => {
    expect(typeOf({ anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] }, 'output')).to.equal('number | null');
    expect(typeOf({ enum: ['toon', 'json'] }, 'input')).to.equal('"toon" | "json"');
    expect(
      typeOf(
        {
          anyOf: [
            { type: 'string', const: 'size' },
            { type: 'string', const: 'unavailable' },
          ],
        },
        'output',
      ),
    ).to.equal('"size" | "unavailable"');
    expect(typeOf({ type: 'array', items: { type: 'string' } }, 'input')).to.equal('Array<string>');
    expect(typeOf({ type: 'object', patternProperties: { '^.*$': { type: 'string' } } }, 'input')).to.equal('{ [key: string]: string }');
    expect(typeOf({ description: 'anything jq made' }, 'output')).to.equal('unknown');
    expect(typeOf({ type: ['string', 'null'] }, 'output')).to.equal('string | null');
  });

  it('makes an argument with a default optional, keeps a result key required, and writes descriptions as doc comments', () => {
    const schema = {
      type: 'object',
      required: ['owner', 'page', 'x-key'],
      properties: { owner: { type: 'string', description: 'User or organization.' }, page: { type: 'integer', default: 1 }, 'x-key': { type: 'boolean' } },
      additionalProperties: false,
    };
    expect(typeOf(schema, 'input')).to.equal('{\n  /** User or organization. */\n  owner: string;\n  page?: number;\n  "x-key": boolean;\n}');
    expect(typeOf(schema, 'output')).to.include('  page: number;');
  });

  it('declares a tool as a namespace and a method, a write marked as one, a tool without an output schema as text', () => {
    const declared = declareTool({
      name: 'jira_delete',
      title: 'Delete',
      description: 'DELETE a Jira REST path.',
      inputSchema: { type: 'object', required: ['path'], properties: { path: { type: 'string' }, outputFormat: { enum: ['toon', 'json'] } } },
      annotations: { readOnlyHint: false },
    });
    expect(declared.namespace).to.equal('declare namespace JiraDelete {\n  type Input = { path: string };\n  type Output = string;\n}\n');
    expect(declared.method).to.equal(
      '  /**\n   * DELETE a Jira REST path.\n   * (A write.)\n   */\n  jira_delete(args: JiraDelete.Input): Promise<JiraDelete.Output>;',
    );
  });

  it('says the common arguments and the envelope once: no doc comment on jq, page or data, provenance by its shared name', () => {
    const declared = declareTool({
      name: 'github_list_things',
      description: 'List things.',
      inputSchema: {
        type: 'object',
        required: ['owner'],
        properties: {
          owner: { type: 'string', description: 'User or organization.' },
          page: { type: 'integer', default: 1, description: "From 1: the last result's nextPage." },
          jq: { type: 'string', description: 'JMESPath projection.' },
        },
      },
      outputSchema: {
        type: 'object',
        required: ['data', 'nextPage', 'cache'],
        properties: {
          data: { description: 'The upstream body after the optional jq projection; null when incomplete.' },
          nextPage: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'The page to request next, or null when there is none.' },
          cache: { type: 'object', required: ['hit'], properties: { hit: { type: 'boolean', description: 'From the cache.' } } },
          provenance: {
            type: 'object',
            required: ['fence', 'untrusted', 'private'],
            properties: {
              fence: { anyOf: [{ type: 'string' }, { type: 'null' }] },
              untrusted: { type: 'integer', minimum: 0 },
              private: { type: 'integer', minimum: 0 },
              withheld: { type: 'integer', minimum: 0 },
            },
          },
        },
      },
      annotations: { readOnlyHint: true },
    });
    expect(declared.namespace).to.equal(
      'declare namespace GithubListThings {\n' +
        '  type Input = {\n    /** User or organization. */\n    owner: string;\n    page?: number;\n    jq?: string;\n  };\n' +
        '  type Output = { data: unknown; nextPage: number | null; cache: { /** From the cache. */ hit: boolean }; provenance?: Provenance };\n}\n',
    );
    // What the note says once, and the shared type a program is checked against.
    expect(answerHead([declared])).to.equal(
      `${GLOBALS_NOTE}// data: the upstream body, or what jq (JMESPath) projects of it: cast it. nextPage: the next page, or null.\n` +
        `type Provenance = { fence: string | null; untrusted: number; private: number; withheld?: number };\n`,
    );
    expect(SANDBOX_GLOBALS).to.include('type Provenance = { fence: string | null; untrusted: number; private: number; withheld?: number };');
  });
});

describe('code mode: declarations say what this server returns, and what a program needs', () => {
  const envelope = {
    type: 'object',
    required: ['data'],
    properties: {
      data: {},
      allowlist: {
        type: 'object',
        required: ['leftOut', 'settings', 'note'],
        properties: { leftOut: { type: 'integer' }, settings: { type: 'array', items: { type: 'string' } }, note: { type: 'string' } },
      },
    },
  };
  const tool = {
    name: 'jira_get',
    description: 'Read from the Jira REST API. The text is the response body (TOON, or JSON with outputFormat "json"). Paths: /rest/api/3/issue/{key}.',
    inputSchema: { type: 'object', required: ['path'], properties: { path: { type: 'string' }, outputFormat: { enum: ['toon', 'json'] } } },
    outputSchema: envelope,
    annotations: { readOnlyHint: true },
  };

  it('leaves the allowlist member out where no MCP_ALLOW_* list is set, and says it where one is', () => {
    const without = declareTool(tool, { allowlists: false });
    expect(without.namespace).to.include('type Output = { data: unknown };');
    // Only the notes on members the answer declares: no nextPage here.
    expect(answerHead([without])).to.equal(`${GLOBALS_NOTE}// data: the upstream body, or what jq (JMESPath) projects of it: cast it.\n`);
    const withLists = declareTool(tool, { allowlists: true });
    expect(withLists.namespace).to.include('type Output = { data: unknown; allowlist?: Allowlist };');
    expect(answerHead([withLists])).to.include('cast it. allowlist: items the MCP_ALLOW_* lists left out.\ntype Allowlist = ');
  });

  it("leaves out a description's sentences about the result's text, as it leaves out outputFormat", () => {
    expect(declareTool(tool, { allowlists: false }).method).to.equal(
      '  /** Read from the Jira REST API. Paths: /rest/api/3/issue/{key}. */\n  jira_get(args: JiraGet.Input): Promise<JiraGet.Output>;',
    );
  });
});

describe('code mode: search_tools declares the allowlist member only on a server with an allowlist', function () {
  this.timeout(60_000);
  const search = async (env: Record<string, string>): Promise<string> => {
    const kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['github'] }) },
      env: { GITHUB_TOKEN: 'code-mode-token', MCP_CODE_MODE: 'true', ...env },
    });
    try {
      return textOf(await kernel.call('search_tools', { query: 'github_list_workflow_runs' }));
    } finally {
      await kernel.close();
    }
  };

  it('leaves it out with no MCP_ALLOW_* list set, and declares it with MCP_ALLOW_REPOS', async () => {
    const plain = await search({});
    expect(plain).to.include('type Output = { data: unknown; nextPage: number | null; provenance?: Provenance };');
    expect(plain).not.to.include('Allowlist');
    const listed = await search({ MCP_ALLOW_REPOS: 'octo-org/*' });
    expect(listed).to.include('allowlist?: Allowlist };');
    expect(listed).to.include(' allowlist: items the MCP_ALLOW_* lists left out.\n');
  });
});

/** What a program returned ('Returned: <json>'), from the artifact that holds the whole output when it was cut. */
async function returned(text: string, client: Client): Promise<unknown> {
  const artifactId = /the whole output is artifact (\S+):/.exec(text)?.[1];
  const whole = artifactId === undefined ? text : (await readArtifact(client, artifactId)).content.toString('utf8');
  return JSON.parse(whole.slice(whole.lastIndexOf('Returned: ') + 'Returned: '.length));
}

describe('code mode: every tool with an output schema, over the standard corpus, through execute', function () {
  this.timeout(300_000);
  let mock: MockUpstream;
  let kernel: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-code-conformance-'));
    kernel = await startTestKernel({
      cwd,
      configFile: { content: JSON.stringify({ plugins: Object.keys(VENDORS) }) },
      env: {
        ...(await vendorSettingsAgainst(cwd, mock.url)),
        MCP_CODE_MODE: 'true',
        JIRA_DEPLOYMENT: 'cloud',
        CONFLUENCE_DEPLOYMENT: 'cloud',
      },
    });
  });
  after(async () => {
    await kernel?.close();
    await mock?.close();
  });

  it('gives programs values that match the outputSchema and the declared Output type', async () => {
    const client = await kernel.connect();
    const catalogue = kernel.kernel.resolve<ToolCatalogue>(TOKENS.ToolCatalogue);
    const reachable = (await catalogue.reachable(LOCAL_PRINCIPAL)).map((t) => t.descriptor).filter((t) => t.outputSchema !== undefined);
    expect(reachable.length, 'tools with an output schema').to.be.above(40);
    const corpus = [...standardCorpus(), BITBUCKET_DOWNLOADS, GITHUB_CHECK_RUNS, GITHUB_GRAPHQL, JIRA_TRANSITIONS, CONFLUENCE_SPACES];
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const failures: string[] = [];
    const samples: string[] = [];
    for (const tool of reachable) {
      const validate = ajv.compile(tool.outputSchema!);
      const args = conformanceArgsFor(tool) ?? schemaArguments(tool.inputSchema as never);
      const code = `return await tools.${tool.name}(${JSON.stringify(args)});`;
      let succeeded = 0;
      for (const entry of corpus) {
        mock.reset();
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) mock.on(method, /.*/, entry.reply);
        const result = await kernel.call('execute', { code });
        const text = textOf(result);
        if (result.isError) {
          // A tool may turn an answer it cannot use into an error; the program then sees a ToolCallError, never a value.
          if (!/threw an error it did not catch: (ToolCallError|PolicyDeniedError): /.test(text))
            failures.push(`${tool.name} / ${entry.name}: ${text.slice(0, 300)}`);
          continue;
        }
        const value = await returned(text, client);
        if (!validate(value)) failures.push(`${tool.name} / ${entry.name}: ${ajv.errorsText(validate.errors)}`);
        else if ((value as { incomplete?: unknown }).incomplete !== undefined) failures.push(`${tool.name} / ${entry.name}: the program saw incomplete`);
        else if (succeeded++ === 0) samples.push(`const ${tool.name}_sample: ${declareTool(tool).namespace.split(' ')[2]}.Output = ${JSON.stringify(value)};`);
      }
      if (succeeded === 0) failures.push(`${tool.name}: no call succeeded over the corpus`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
    // Each tool's first real value, as a literal of its declared Output type: the declarations say what comes back.
    const { DeclarationCache } = await import('../../../plugins/code-mode/declarations.js');
    const declarations = new DeclarationCache().fileFor(reachable);
    await compileProgram(samples.join('\n'), { declarations, typeCheck: true });
  });
});
