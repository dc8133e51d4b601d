// The MCP and GenAI attribute names are copied into core/metrics/span-attributes.ts (they are not stable, and the
// package's `incubating` entry may change in any minor release): these copies must say what the package says.
import { expect } from 'chai';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import * as ours from '../../../core/metrics/span-attributes.js';

describe('the span attribute names copied from the OpenTelemetry semantic conventions', () => {
  for (const name of [
    'ATTR_MCP_METHOD_NAME',
    'ATTR_MCP_PROTOCOL_VERSION',
    'ATTR_JSONRPC_REQUEST_ID',
    'ATTR_GEN_AI_OPERATION_NAME',
    'GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL',
    'ATTR_GEN_AI_TOOL_NAME',
  ] as const) {
    it(`${name} is the package's`, () => {
      expect(ours[name]).to.equal((incubating as Record<string, unknown>)[name]);
    });
  }

  it("keeps this server's own attributes under its own namespace", () => {
    const own = [ours.ATTR_REQUEST_ID, ours.ATTR_CLIENT_NAME, ours.ATTR_CLIENT_VERSION, ours.ATTR_VENDOR, ours.ATTR_OUTCOME];
    for (const name of own) expect(name).to.match(/^mcp_devtools\./);
    const published = new Set<unknown>(Object.values(incubating));
    for (const name of own) expect(published.has(name), name).to.equal(false);
  });
});
