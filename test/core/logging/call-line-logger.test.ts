import { expect } from 'chai';
import { callLineLogger } from '../../../core/kernel/call-log.js';
import { createLogger } from '../../../core/logging/logger.js';

describe('callLineLogger: the logger of the per-call lines', () => {
  const secret = 'ATATT3x-call-line-secret-0042';

  function lines(): { lines: string[]; log: ReturnType<typeof callLineLogger> } {
    const written: string[] = [];
    const root = createLogger({ level: 'info', secrets: [secret], destination: { write: (line: string) => written.push(line) } });
    return { lines: written, log: callLineLogger(root) };
  }

  it('still scrubs a configured secret value from the line, wherever it appears', () => {
    const { lines: written, log } = lines();
    log.info({ tool: 'jira_get', path: `/rest/api/3/issue/${secret}`, principal: `user-${secret}` }, 'tool call');
    expect(written).to.have.length(1);
    expect(written[0]).not.to.contain(secret);
    expect(JSON.parse(written[0]!)).to.include({ tool: 'jira_get', path: '/rest/api/3/issue/[REDACTED]', msg: 'tool call' });
  });

  it('writes at the level of the server logger and as JSON with its base fields', () => {
    const { lines: written, log } = lines();
    log.debug({ tool: 'x' }, 'not at info');
    log.info({ tool: 'jira_get', durationMs: 1.2 }, 'tool call');
    expect(written.map((line) => JSON.parse(line) as Record<string, unknown>)).to.have.length(1);
    expect(JSON.parse(written[0]!)).to.include({ name: 'mcp-devtools', tool: 'jira_get', durationMs: 1.2 });
  });
});
