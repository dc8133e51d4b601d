import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { ARTIFACT_NOT_FOUND_TEXT, readArtifact } from '../support/artifact-reader.js';
import { uniqueNamespace } from '../support/redis.js';
import { REPLICA_PLUGINS, vendorCredentials, writeDeployment, type Caller } from '../support/replica-deployment.js';
import { startVendorUpstreams, type VendorUpstreams } from '../support/replica-upstreams.js';
import { startReplicas, stopReplicas, type Replica } from '../support/replicas.js';
import { sqliteFile } from '../support/store-backends.js';

const runs = { owner: 'octo-org', repo: 'octo-repo' };

/**
 * One call of each kind a policy decides, made by the caller it is decided for: allowed reads of every
 * structured envelope (small, and oversized with an artifact), an upstream error, a tool without an upstream,
 * the three refusals (rule deny, no rule, approval held).
 */
const CALLS: Array<{ what: string; who: Caller; tool: string; args: Record<string, unknown>; refused?: 'policy_denied' | 'approval_required' }> = [
  { what: 'a small page', who: 'rene', tool: 'github_list_workflow_runs', args: { ...runs, jq: 'workflow_runs[0:2].id' } },
  { what: 'an oversized page', who: 'rene', tool: 'github_list_workflow_runs', args: runs },
  { what: 'a cached CircleCI read', who: 'rene', tool: 'circleci_get', args: { path: '/project/gh/acme/api/schedule' } },
  { what: 'a Jira read', who: 'alice', tool: 'jira_get', args: { path: '/rest/api/3/issue/PLAT-1421', jq: 'fields.summary' } },
  { what: 'an upstream 404', who: 'alice', tool: 'jira_get', args: { path: '/rest/api/3/issue/NOPE-1' } },
  { what: 'an unknown artifact', who: 'rene', tool: 'artifact_read', args: { artifactId: '0'.repeat(32) } },
  { what: 'a read the production rule denies', who: 'alice', tool: 'circleci_get', args: { path: '/project/gh/acme/api/schedule' }, refused: 'policy_denied' },
  { what: 'a write denied to contractors', who: 'carol', tool: 'jira_delete', args: { path: '/rest/api/3/issue/PLAT-3' }, refused: 'policy_denied' },
  {
    what: 'a write into SEC',
    who: 'alice',
    tool: 'jira_post',
    args: { path: '/rest/api/3/issue', body: { fields: { project: { key: 'SEC' }, summary: 'x' } } },
    refused: 'policy_denied',
  },
  {
    what: 'a write no rule allows',
    who: 'alice',
    tool: 'jira_put',
    args: { path: '/rest/api/3/project/PLAT', body: { name: 'Platform' } },
    refused: 'policy_denied',
  },
  { what: 'a delete held for approval', who: 'alice', tool: 'jira_delete', args: { path: '/rest/api/3/issue/PLAT-9' }, refused: 'approval_required' },
];

/** `meta` with every fence boundary (random per call) written as one placeholder. */
const anyFence = (meta: unknown): unknown => (meta === undefined ? undefined : JSON.parse(JSON.stringify(meta).replace(/<(\/?)\d{9,}>/g, '<$1fence>')));

describe('_meta over Streamable HTTP is the same with MCP_STRUCTURED_OUTPUT on and off (two replicas mid-rollout of the flag, one store)', function () {
  this.timeout(120_000);
  let upstreams: VendorUpstreams;
  let off: Replica;
  let on: Replica;

  before(async () => {
    upstreams = await startVendorUpstreams();
    const deployment = writeDeployment();
    const shared = {
      storeUrl: `sqlite://${sqliteFile()}`,
      namespace: uniqueNamespace('flag'),
      plugins: REPLICA_PLUGINS,
      tokens: deployment.tokens,
    };
    const env = { ...vendorCredentials(upstreams.urls), ...deployment.env };
    [[off], [on]] = await Promise.all([
      startReplicas(1, { ...shared, env: { ...env, MCP_STRUCTURED_OUTPUT: 'false' } }),
      startReplicas(1, { ...shared, env: { ...env, MCP_STRUCTURED_OUTPUT: 'true' } }),
    ]);
  });
  after(async () => {
    await stopReplicas([off, on].filter(Boolean));
    await upstreams?.close();
  });

  it('gives every call, allowed, failed or refused, the same _meta: upstream identity, code and decision', async () => {
    const settings = vendorCredentials(upstreams.urls);
    const identity = (vendor: keyof VendorUpstreams['urls']): Record<string, string> => ({
      vendor,
      credential: settings[`${vendor.toUpperCase()}_CREDENTIAL_LABEL`]!,
      host: new URL(upstreams.urls[vendor]).host,
      environment: settings[`${vendor.toUpperCase()}_ENVIRONMENT`] ?? 'default',
    });
    for (const c of CALLS) {
      // Off first: a held call then finds, on the other replica, the approval the first one recorded.
      const a = (await (await off.as(c.who)).callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
      const b = (await (await on.as(c.who)).callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
      // A fence's boundary is random per call: the same _meta but for it.
      expect(anyFence(b._meta), c.what).to.deep.equal(anyFence(a._meta));
      expect(b.isError, c.what).to.equal(a.isError);
      expect(a, c.what).not.to.have.property('structuredContent');
      const vendor = c.tool.split('_')[0] as keyof VendorUpstreams['urls'] | 'artifact';
      expect(a._meta?.['mcp-devtools/upstream'], c.what).to.deep.equal(vendor === 'artifact' ? null : identity(vendor));
      if (c.refused === undefined) {
        // Beside ours, a 2026-07-28 result carries the protocol's own keys (`io.modelcontextprotocol/serverInfo`).
        expect(
          Object.keys(a._meta!).filter((k) => !k.startsWith('io.modelcontextprotocol/') && k !== 'mcp-devtools/provenance'),
          c.what,
        ).to.deep.equal(['mcp-devtools/upstream']);
      } else {
        expect(a._meta, c.what).to.deep.include({ code: c.refused });
        expect(a._meta!.decision, c.what)
          .to.include({ effect: c.refused === 'policy_denied' ? 'deny' : 'approval_required' })
          .and.to.have.property('policyVersion');
      }
      // Only successful results of the six schema tools carry structured content.
      expect(b.structuredContent !== undefined, c.what).to.equal(a.isError !== true && vendor !== 'artifact');
      if (c.what === 'an oversized page') {
        // Saved by the replica with the flag on, read whole through the one with it off.
        const { artifactId, bytes } = (b.structuredContent as { incomplete: { artifactId: string; bytes: number } }).incomplete;
        const read = await readArtifact(await off.as(c.who), artifactId);
        expect(JSON.parse(read.content.toString('utf8')), c.what)
          .to.deep.include({ nextPage: 2 })
          .and.to.have.nested.property('data.workflow_runs.length', 30);
        expect(read.content.length).to.equal(bytes);
      }
      if (vendor === 'artifact') expect(b.content, c.what).to.deep.equal([{ type: 'text', text: ARTIFACT_NOT_FOUND_TEXT }]);
    }
    expect(upstreams.jira.requests.filter((r) => r.method !== 'GET')).to.have.length(0);
  });
});
