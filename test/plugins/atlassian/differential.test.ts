import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { BITBUCKET_CORPUS } from '../../fixtures/atlassian/bitbucket-corpus.js';
import { CONFLUENCE_CORPUS } from '../../fixtures/atlassian/confluence-corpus.js';
import type { DiffCase } from '../../fixtures/atlassian/corpus-kit.js';
import { JIRA_CORPUS } from '../../fixtures/atlassian/jira-corpus.js';
import { TEST_MODULES } from '../../support/paths.js';
import { connectStdio, type StdioSession } from '../../support/sdk-client.js';
import { startReferenceServer, type ReferenceServer } from './differential/reference-server.js';
import { describeTextDifference } from './differential/text-difference.js';

const CREDENTIALS = { ATLASSIAN_SITE_NAME: 'acme', ATLASSIAN_USER_EMAIL: 'diff@acme.example', ATLASSIAN_API_TOKEN: 'diff-api-token-0451' };
const SAVED_AT = /^(- The full raw API response is saved at: )`([^`\n]*)`$/m;
const TRUNCATION_NOTICE = '\n---\n## Response Truncated\n';

interface Exchange {
  text: string;
  isError: boolean;
  requests: Array<{ method: string; url: string; body: string; authorization: string | undefined }>;
}

interface Suite {
  title: string;
  corpus: DiffCase[];
  reference: () => ReferenceServer;
  /** Tool prefix on the reference server and on ours (Confluence goes through the Jira reference). */
  referenceTools: string;
  ourTools: string;
}

describe('Atlassian tools: content[0].text byte for byte against the published reference servers', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let ours: StdioSession;
  let jiraReference: ReferenceServer;
  let bitbucketReference: ReferenceServer;

  before(async () => {
    mock = await MockUpstream.start();
    [ours, jiraReference, bitbucketReference] = await Promise.all([
      connectStdio({ env: { ...CREDENTIALS, JIRA_BASE_URL: mock.url, CONFLUENCE_BASE_URL: mock.url, BITBUCKET_BASE_URL: mock.url, LOG_LEVEL: 'warn' } }),
      startReferenceServer('jira', mock.url, CREDENTIALS),
      startReferenceServer('bitbucket', mock.url, CREDENTIALS),
    ]);
  });

  after(async () => {
    await Promise.all([ours?.close(), jiraReference?.close(), bitbucketReference?.close()]);
    await mock?.close();
  });

  /** One call against a fresh mock: the text, whether it is an error, and every request the mock received. */
  async function exchange(client: Client, tool: string, c: DiffCase): Promise<Exchange> {
    mock.reset();
    mock.on(c.verb.toUpperCase(), /.*/, c.reply);
    const result = (await client.callTool({ name: tool, arguments: c.args })) as CallToolResult;
    const first = result.content[0];
    return {
      text: first?.type === 'text' ? first.text : JSON.stringify(result.content),
      isError: result.isError === true,
      requests: mock.requests.map((r) => ({ method: r.method, url: r.url, body: r.body, authorization: r.headers.authorization })),
    };
  }

  it('runs the oracle as installed today: the pinned reference servers and their TOON and JMESPath', () => {
    const version = (pkg: string): string => (JSON.parse(readFileSync(join(TEST_MODULES, pkg, 'package.json'), 'utf8')) as { version: string }).version;
    expect(version('@aashari/mcp-server-atlassian-jira')).to.equal('3.3.0');
    expect(version('@aashari/mcp-server-atlassian-bitbucket')).to.equal('3.1.0');
    expect(version('@toon-format/toon')).to.equal('2.3.1');
    expect(version('jmespath')).to.equal('0.16.0');
  });

  it('has a corpus of at least 40 cases for Jira and for Bitbucket', () => {
    expect(JIRA_CORPUS.length).to.be.at.least(40);
    expect(BITBUCKET_CORPUS.length).to.be.at.least(40);
    for (const corpus of [JIRA_CORPUS, BITBUCKET_CORPUS, CONFLUENCE_CORPUS]) {
      expect(new Set(corpus.map((c) => c.name)).size, 'case names are unique').to.equal(corpus.length);
    }
  });

  const suites: Suite[] = [
    { title: 'Jira (jira_* against the Jira reference)', corpus: JIRA_CORPUS, reference: () => jiraReference, referenceTools: 'jira', ourTools: 'jira' },
    {
      title: 'Confluence (conf_* against the Jira reference on /wiki/ paths)',
      corpus: CONFLUENCE_CORPUS,
      reference: () => jiraReference,
      referenceTools: 'jira',
      ourTools: 'conf',
    },
    {
      title: 'Bitbucket (bb_* against the Bitbucket reference)',
      corpus: BITBUCKET_CORPUS,
      reference: () => bitbucketReference,
      referenceTools: 'bb',
      ourTools: 'bb',
    },
  ];

  for (const suite of suites) {
    describe(suite.title, () => {
      for (const c of suite.corpus) {
        it(c.name, async () => {
          const reference = await exchange(suite.reference().client, `${suite.referenceTools}_${c.verb}`, c);
          const our = await exchange(ours.client, `${suite.ourTools}_${c.verb}`, c);
          expect(our.isError, `ours failed:\n${our.text}`).to.equal(false);
          expect(our.requests, 'the requests the vendor received').to.deep.equal(reference.requests);
          expect(our.requests, 'one request per call, unless redirected').to.have.length.at.least(1);
          if (c.referenceFails !== undefined) {
            expect(reference.text, `the reference no longer fails (${c.referenceFails.why}): make this an ordinary case`).to.match(
              c.referenceFails.referenceText,
            );
            expect(our.text).to.equal(c.referenceFails.ours);
            return;
          }
          const difference = describeTextDifference(normaliseSavedPath(reference.text), normaliseSavedPath(our.text));
          if (difference !== undefined) expect.fail(`${c.name}: ${difference}`);
          expectSavedFileHoldsTheWholeText(our.text);
        });
      }
    });
  }

  it('offers the reference tools with the same argument names, types and required arguments', async () => {
    const ourTools = new Map((await ours.client.listTools()).tools.map((t) => [t.name, t]));
    const checked: string[] = [];
    for (const [reference, prefix] of [
      [jiraReference, 'jira'],
      [bitbucketReference, 'bb'],
    ] as const) {
      // bb_clone (git clone to the local disk) is not a passthrough and is not offered here.
      const passthroughs = (await reference.client.listTools()).tools.filter((t) => /^[a-z]+_(get|post|put|patch|delete)$/.test(t.name));
      for (const tool of passthroughs.filter((t) => t.name.startsWith(`${prefix}_`))) {
        const mine = ourTools.get(tool.name);
        expect(mine, tool.name).to.not.equal(undefined);
        expect(argumentShape(mine!.inputSchema), tool.name).to.deep.equal(argumentShape(tool.inputSchema));
        checked.push(tool.name);
      }
    }
    expect(checked).to.have.length(10);
    for (const verb of ['get', 'post', 'put', 'patch', 'delete']) {
      expect(argumentShape(ourTools.get(`conf_${verb}`)!.inputSchema)).to.deep.equal(argumentShape(ourTools.get(`jira_${verb}`)!.inputSchema));
    }
  });
});

/** Only the saved file's path may differ: the reference's is under /tmp/mcp, ours under MCP_RAW_RESPONSE_DIR. */
function normaliseSavedPath(text: string): string {
  return text.replace(SAVED_AT, '$1`<saved file>`');
}

/** When our text names a saved file, that file is owner-only and holds the whole text the model saw the start of. */
function expectSavedFileHoldsTheWholeText(text: string): void {
  const path = SAVED_AT.exec(text)?.[2];
  if (path === undefined) return;
  expect(existsSync(path), path).to.equal(true);
  expect(statSync(path).mode & 0o777).to.equal(0o600);
  const kept = text.slice(0, text.indexOf(TRUNCATION_NOTICE));
  const whole = readFileSync(path, 'utf8');
  expect(whole.length).to.be.greaterThan(40_000);
  expect(whole.startsWith(kept), 'the saved text starts with what the model saw').to.equal(true);
}

/** What a tool's arguments are: name, JSON type, whether required, the type of map values. */
function argumentShape(schema: { properties?: Record<string, unknown>; required?: string[] }): Record<string, unknown> {
  const shape: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const p = property as {
      type?: unknown;
      enum?: unknown[];
      anyOf?: Array<{ const?: unknown }>;
      minLength?: number;
      additionalProperties?: { type?: unknown };
      patternProperties?: Record<string, { type?: unknown }>;
    };
    shape[name] = {
      type: p.type ?? (p.anyOf ? 'string' : undefined),
      values: p.enum ?? p.anyOf?.map((o) => o.const),
      minLength: p.minLength,
      // A map of strings is `additionalProperties` in the reference (zod) and `patternProperties` here (TypeBox).
      mapOf: p.additionalProperties?.type ?? p.patternProperties?.['^.*$']?.type,
      required: (schema.required ?? []).includes(name),
    };
  }
  return shape;
}
