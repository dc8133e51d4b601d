import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockUpstream } from 'mcp-devtools/build/server/testing/mock-upstream.js';
import type { ServerOptions } from '../harness/server-connection.js';
import type { Task } from './task.js';

/** Credentials the mock never checks; they only have to be set for the vendor plugins to call it. */
const CREDENTIALS = {
  GITHUB_TOKEN: 'code-mode-example-github-token',
  CIRCLECI_TOKEN: 'CCIPAT_codeModeExample_0000000000000000',
  ATLASSIAN_SITE_NAME: 'acme',
  ATLASSIAN_USER_EMAIL: 'mia.krystof@acme.example',
  ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-code-mode-example',
};

export interface ServerSetup {
  /** A config file's `plugins` (built-in names or module paths); default: every built-in vendor. */
  plugins?: string[];
  /** More settings, e.g. MCP_STRUCTURED_MAX_BYTES. */
  env?: Record<string, string>;
}

/** The vendor APIs of the tasks on one loopback mock, and the settings that point a server at it. */
export interface VendorWorld {
  mock: MockUpstream;
  /** A fresh server's options: its own working directory and home, so no cache or setting is shared. */
  server(setup?: ServerSetup): ServerOptions;
  close(): Promise<void>;
}

/** Starts the mock with every task's data set mounted (GitHub, Jira and CircleCI paths do not overlap). */
export async function startVendorWorld(tasks: readonly Task[]): Promise<VendorWorld> {
  const mock = await MockUpstream.start();
  for (const task of tasks) task.mount(mock);
  return {
    mock,
    server(setup = {}) {
      const cwd = mkdtempSync(join(tmpdir(), 'code-mode-server-'));
      if (setup.plugins !== undefined) writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: setup.plugins }));
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        // A program may call any tool: the harness declares every one, the REST passthroughs too; not the server's
        // own code mode, which is another way of running programs (measured apart: measure:server).
        MCP_TOOLSETS: 'all',
        MCP_EXCLUDE_TOOLS: 'search_tools,execute',
        MCP_RAW_RESPONSE_DIR: join(cwd, 'raw'),
        // Fences around untrusted text have a boundary drawn per call, so the tokens read would differ from run to
        // run; what they cost is measured apart (the server's npm run bench:provenance).
        MCP_FENCE: 'false',
        GITHUB_API_URL: mock.url,
        CIRCLECI_BASE_URL: mock.url,
        JIRA_BASE_URL: mock.url,
        ...CREDENTIALS,
        ...setup.env,
      };
      return { cwd, env };
    },
    close: () => mock.close(),
  };
}
