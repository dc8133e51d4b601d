import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../support/test-kernel.js';
import { vendorCanaries } from '../support/canaries.js';
import { errorCodeOf, expectUsableResult } from '../support/call-oracle.js';
import { FAULT_LIMITS, UPSTREAM_FAULTS, type UpstreamFault } from '../support/upstream-faults.js';
import { VendorMocks } from '../support/vendor-mocks.js';

/** A read tool, the mock it reaches and the path it reaches there; `lenient` tools keep non-JSON bodies as text. */
interface ReadTool {
  tool: string;
  vendor: keyof VendorMocks['vendors'];
  args(n: number): Record<string, unknown>;
  path(n: number): string;
  lenient: boolean;
}

const READS: ReadTool[] = [
  {
    tool: 'github_get',
    vendor: 'github',
    args: (n) => ({ path: `/repos/acme/app${n}/actions/runs` }),
    path: (n) => `/repos/acme/app${n}/actions/runs`,
    lenient: false,
  },
  {
    tool: 'github_list_workflow_jobs',
    vendor: 'github',
    args: (n) => ({ owner: 'acme', repo: `app${n}`, runId: 30433642 }),
    path: (n) => `/repos/acme/app${n}/actions/runs/30433642/jobs`,
    lenient: false,
  },
  {
    tool: 'circleci_get',
    vendor: 'circleci',
    args: (n) => ({ path: `/project/gh/acme/app${n}/schedule` }),
    path: (n) => `/api/v2/project/gh/acme/app${n}/schedule`,
    lenient: false,
  },
  { tool: 'jira_get', vendor: 'jira', args: (n) => ({ path: `/rest/api/3/issue/PLAT-${n}` }), path: (n) => `/rest/api/3/issue/PLAT-${n}`, lenient: true },
  {
    tool: 'bb_get',
    vendor: 'bitbucket',
    args: (n) => ({ path: `/repositories/acme/app${n}/pullrequests` }),
    path: (n) => `/2.0/repositories/acme/app${n}/pullrequests`,
    lenient: true,
  },
];

/** A fault about the body of a 200: the Atlassian passthroughs keep what is not JSON as text, as their reference servers do. */
const BODY_FAULTS = new Set(['truncated JSON with 200', 'an HTML login page with 200']);

describe('hardening: upstream faults, each a documented error, retries bounded, nothing cached from a failure', function () {
  this.timeout(60_000);
  let mocks: VendorMocks;
  let kernel: TestKernel;
  let injected = 0;
  let n = 0;

  before(async () => {
    mocks = await VendorMocks.start(vendorCanaries());
    kernel = await startTestKernel({ env: { ...mocks.env(), ...FAULT_LIMITS } });
  });
  after(async () => {
    process.stdout.write(`\n  upstream faults injected: ${injected} (${UPSTREAM_FAULTS.length} kinds, ${READS.length} read tools, 3 write tools)\n`);
    await kernel?.close();
    await mocks?.close();
  });

  const inject = (mock: MockUpstream, method: string, path: string, fault: UpstreamFault): void => {
    injected++;
    mock.on(method, path, () => fault.reply(mocks.evil.url));
  };

  for (const fault of UPSTREAM_FAULTS) {
    for (const read of READS) {
      const asText = read.lenient && BODY_FAULTS.has(fault.name);
      it(`${fault.name} -> ${read.tool}: ${asText ? 'the body as text' : (fault.code ?? 'success')}, ${fault.getRequests} request(s)`, async () => {
        const i = ++n;
        const mock = mocks.vendors[read.vendor].mock;
        mocks.reset();
        inject(mock, 'GET', read.path(i), fault);
        const result = await kernel.call(read.tool, read.args(i));
        const code = expectUsableResult(result, `${read.tool} under ${fault.name}`);
        expect(code, textOf(result).slice(0, 600)).to.equal(asText ? undefined : fault.code);
        if (fault.says && !asText) expect(textOf(result)).to.match(fault.says);
        expect(
          mock.requests.filter((r) => r.path === read.path(i)),
          'requests made',
        ).to.have.length(fault.getRequests);
        mocks.expectEveryRequestInBounds();
        if (read.tool === 'circleci_get' && fault.code !== undefined) await expectNothingCached(mock, read, i);
      });
    }
  }

  /** After a failure, the next call goes upstream (a miss) and is then cached: a failed answer was never stored. */
  async function expectNothingCached(mock: MockUpstream, read: ReadTool, i: number): Promise<void> {
    mock.reset();
    mock.on('GET', read.path(i), { body: { items: [{ id: 'fresh' }], next_page_token: null } });
    const cacheOf = (r: CallToolResult): { hit: boolean } => (JSON.parse(textOf(r)) as { cache: { hit: boolean } }).cache;
    const after = await kernel.call(read.tool, { ...read.args(i), outputFormat: 'json' });
    expect([cacheOf(after).hit, mock.requests.length], 'the call after the failure').to.deep.equal([false, 1]);
    const again = await kernel.call(read.tool, { ...read.args(i), outputFormat: 'json' });
    expect([cacheOf(again).hit, mock.requests.length], 'the call after that is served from the cache').to.deep.equal([true, 1]);
  }

  const WRITES = [
    {
      tool: 'circleci_post',
      vendor: 'circleci' as const,
      method: 'POST',
      args: { path: '/project/gh/acme/app/pipeline', body: { branch: 'main' } },
      path: '/api/v2/project/gh/acme/app/pipeline',
    },
    {
      tool: 'jira_put',
      vendor: 'jira' as const,
      method: 'PUT',
      args: { path: '/rest/api/3/issue/PLAT-1', body: { fields: { summary: 'x' } } },
      path: '/rest/api/3/issue/PLAT-1',
    },
    {
      tool: 'bb_delete',
      vendor: 'bitbucket' as const,
      method: 'DELETE',
      args: { path: '/repositories/acme/app/refs/branches/old' },
      path: '/2.0/repositories/acme/app/refs/branches/old',
    },
  ];
  const RETRIED = UPSTREAM_FAULTS.filter((f) => f.getRequests > 1);
  for (const write of WRITES) {
    it(`${write.tool} is sent exactly once whatever fails (${RETRIED.map((f) => f.name.split(' (')[0]).join('; ')})`, async () => {
      for (const fault of RETRIED) {
        mocks.reset();
        const mock = mocks.vendors[write.vendor].mock;
        inject(mock, write.method, write.path, fault);
        const result = await kernel.call(write.tool, write.args);
        expect(errorCodeOf(result), `${write.tool} under ${fault.name}`).to.equal(fault.code);
        expect(mock.requests, `${write.tool} under ${fault.name}`).to.have.length(1);
      }
    });
  }
});
