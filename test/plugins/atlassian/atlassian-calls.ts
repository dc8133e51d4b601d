import { readdirSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';

/** A test Atlassian account; the token is what must never show up in a result or a log. */
export const ACCOUNT = {
  ATLASSIAN_SITE_NAME: 'acme',
  ATLASSIAN_USER_EMAIL: 'mia.krystof@acme.example',
  ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-test-api-token-7f3a',
} as const;

export function basicHeader(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}

export interface ToolCall {
  text: string;
  isError: boolean;
  result: CallToolResult;
}

/** Calls a tool through the SDK client and returns its first text block. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCall> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(result)}`);
  return { text: first.text, isError: result.isError === true, result };
}

/** The raw-response files in a folder (none when it does not exist). */
export function savedFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.startsWith('raw-'));
  } catch {
    return [];
  }
}

/**
 * A tool's own requests, without the lookups its provenance labels take (a project's permission scheme, a
 * space's permissions, an author's groups), which are remembered a minute and so come or not by test order.
 */
export function withoutLabelling<R extends { url: string }>(requests: readonly R[]): R[] {
  return requests.filter(
    (r) => !/\/permissionscheme|\/user\/groups|\/user\/memberof|\/rest\/api\/space\/|\/rest\/api\/[23]\/user\?|\/wiki\/rest\/api\/user\?/.test(r.url),
  );
}
