import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { assertConforms } from '../../server/testing/plugin-conformance.js';
import { checkStructuredConformance } from '../../server/testing/structured-conformance.js';
import {
  CLIENT_KINDS,
  connectHttpAs,
  connectStdioAs,
  startHttpServer,
  type ClientKind,
  type Connected,
  type HttpServerProcess,
} from '../support/sdk-client.js';
import { conformanceArgsFor, conformanceServerFolder, representativeCorpus, REPRESENTATIVE_PROJECTIONS } from '../plugins/structured/conformance-server.js';

/** The revision each client ends up speaking with this server. */
const EXPECTED_REVISION: Record<ClientKind, string> = { sdk1: '2025-11-25', 'v2-legacy': '2025-11-25', 'v2-auto': '2026-07-28', 'v2-pinned': '2026-07-28' };
const isModern = (kind: ClientKind): boolean => EXPECTED_REVISION[kind] >= '2026-07-28';

/**
 * One client of each era checks every result of the representative corpus under every projection: the 1.x SDK
 * client (2025-11-25) and the v2 client negotiating 2026-07-28. The other two meet nothing new (v2-legacy: the
 * 1.x client's revision and v2-auto's validator; v2-pinned: both of v2-auto's), so they check the same corpus
 * without projections: every corpus entry still reaches their validator, with a quarter of the calls.
 */
const PROJECTIONS_OF: Record<ClientKind, typeof REPRESENTATIVE_PROJECTIONS> = {
  sdk1: REPRESENTATIVE_PROJECTIONS,
  'v2-auto': REPRESENTATIVE_PROJECTIONS,
  'v2-legacy': [{}],
  'v2-pinned': [{}],
};

/** The schema tools of the built-in vendors and of the structured fixture plugin. */
const SCHEMA_TOOLS = [
  'github_list_workflow_runs',
  'github_list_workflow_jobs',
  'circleci_get',
  'jira_get',
  'conf_get',
  'bb_get',
  'fixture_get',
  'fixture_list_runs',
  'fixture_circle_get',
  'fixture_atlassian_get',
];

/**
 * Every client generation against the built `dist/cli.js`, over both transports, with structured output on and
 * off: the 1.x SDK client, the v2 client in its default (2025-era) mode, and the v2 client negotiating
 * 2026-07-28 (auto, and pinned). Each negotiates the revision it should, sees the tools and schemas its revision
 * may carry, and accepts every structured result of the representative corpus from one tool of each output schema
 * (the SDK client validates each one against the advertised schema itself; see PROJECTIONS_OF for which client
 * sees it under every projection). The third-party array-rooted schema
 * shows the protocol gate from both sides: advertised, with an array value and its JSON as text, to 2026-07-28
 * clients; withheld (text only) from older ones.
 */
describe('compatibility matrix: client generations x transports x MCP_STRUCTURED_OUTPUT', function () {
  this.timeout(300_000);
  let mock: MockUpstream;

  before(async () => {
    mock = await MockUpstream.start();
  });
  after(async () => {
    await mock.close();
  });

  for (const structured of [true, false]) {
    for (const transport of ['stdio', 'http'] as const) {
      describe(`${transport}, structured output ${structured ? 'on' : 'off'}`, () => {
        let server: HttpServerProcess | undefined;
        let folder: { cwd: string; env: Record<string, string> };

        before(async () => {
          folder = await conformanceServerFolder(mock.url, { structured, faulty: true });
          if (transport === 'http') server = await startHttpServer(folder);
        });
        after(async () => {
          await server?.stop();
        });

        const connect = (kind: ClientKind): Promise<Connected> => (transport === 'http' ? connectHttpAs(kind, server!.url) : connectStdioAs(kind, folder));

        for (const kind of CLIENT_KINDS) {
          it(`${kind}: negotiates ${EXPECTED_REVISION[kind]}, lists what that revision may carry, and accepts the results of every schema`, async () => {
            const connected = await connect(kind);
            try {
              expect(connected.revision, 'negotiated revision').to.equal(EXPECTED_REVISION[kind]);
              const { tools } = await connected.client.listTools();
              const schemaOf = (name: string): Record<string, unknown> | undefined =>
                tools.find((t) => t.name === name)?.outputSchema as Record<string, unknown> | undefined;
              const advertised = tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name);
              if (!structured) {
                expect(advertised).to.deep.equal([]);
                const result = await connected.client.callTool({ name: 'fixture_atlassian_get', arguments: { path: '/anything' } });
                expect(result).not.to.have.property('structuredContent');
                return;
              }
              expect(advertised).to.include.members(SCHEMA_TOOLS);
              for (const name of SCHEMA_TOOLS) expect(schemaOf(name)?.type, name).to.equal('object');
              await expectArrayRootGate(connected, schemaOf('faulty_array_root'));
              const checked = onePerSchema(tools, SCHEMA_TOOLS);
              const report = await checkStructuredConformance({
                client: connected.client,
                upstreams: [mock],
                argsFor: conformanceArgsFor,
                corpus: representativeCorpus(),
                projections: PROJECTIONS_OF[kind],
                skip: (tool) => !checked.has(tool.name),
              });
              expect(report.tools).to.include.members(SCHEMA_TOOLS);
              assertConforms(report);
            } finally {
              await connected.close();
            }
          });
        }
      });
    }
  }
});

/**
 * The tools whose results each client checks: those named, and one of every other output schema. What a client
 * accepts is decided by the schema it validates against (50 tools share 5 schemas here); every tool's results are
 * held to its schema in-process by the conformance test, over the whole corpus. The faulty fixtures break the
 * contract on purpose (tests of their own cover them) and are never checked.
 */
function onePerSchema(tools: ReadonlyArray<{ name: string; outputSchema?: unknown }>, named: readonly string[]): Set<string> {
  const seen = new Set(tools.filter((t) => named.includes(t.name)).map((t) => JSON.stringify(t.outputSchema)));
  const checked = new Set(named);
  for (const tool of tools) {
    const schema = JSON.stringify(tool.outputSchema);
    if (tool.outputSchema === undefined || tool.name.startsWith('faulty_') || seen.has(schema)) continue;
    seen.add(schema);
    checked.add(tool.name);
  }
  return checked;
}

/** The array-rooted schema of a third-party plugin: one way for each era, accepted by each client. */
async function expectArrayRootGate(connected: Connected, advertised: Record<string, unknown> | undefined): Promise<void> {
  const result = await connected.client.callTool({ name: 'faulty_array_root', arguments: {} });
  if (isModern(connected.kind)) {
    expect(advertised).to.deep.equal({ type: 'array', items: { type: 'integer' } });
    expect(result.structuredContent).to.deep.equal([3, 1, 2]);
    // The text the model reads (TOON, as for every tool), and the value's JSON, as MCP asks for a non-object value.
    expect(result.content).to.deep.equal([
      { type: 'text', text: '[3]: 3,1,2' },
      { type: 'text', text: '[3,1,2]' },
    ]);
  } else {
    expect(advertised, 'withheld from a 2025-era client').to.equal(undefined);
    expect(result).not.to.have.property('structuredContent');
    expect(result.content).to.deep.equal([{ type: 'text', text: '[3]: 3,1,2' }]);
  }
}
