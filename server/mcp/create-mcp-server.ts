import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type InitializeResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createRequire } from 'node:module';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { Kernel, UnknownToolError } from '../../core/kernel/kernel.js';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/pipeline/principal.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { answerInvalidParamsAsSuch } from './invalid-params.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';

export interface McpServerOptions {
  /** The protocol revision the client sent (the `mcp-protocol-version` header over HTTP). */
  protocolVersion?: string;
}

/**
 * An MCP server (the SDK's low-level Server, which takes raw JSON Schema) answering from the kernel.
 * The principal comes from the transport's authentication (`authInfo.extra.principal`), `local` without it.
 */
export function createMcpServer(kernel: Kernel, options: McpServerOptions = {}): Server {
  const server = new Server({ name: SERVER_NAME, version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: sharedSchemaValidator });
  let negotiated = options.protocolVersion;

  // The SDK negotiates the revision but does not keep it; the kernel needs it to gate schemas per client.
  const sdkInitialize = (server as unknown as { _oninitialize(r: unknown): Promise<InitializeResult> })._oninitialize.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await sdkInitialize(request);
    negotiated = result.protocolVersion;
    return result;
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: kernel.listTools(negotiated) as never }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const principal = (extra.authInfo?.extra?.principal as Principal | undefined) ?? LOCAL_PRINCIPAL;
    try {
      return await kernel.call(request.params.name, request.params.arguments, principal, { signal: extra.signal, protocolVersion: negotiated });
    } catch (error) {
      if (error instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  });
  answerInvalidParamsAsSuch(server);
  return server;
}

let ajvValidator: AjvJsonSchemaValidator | undefined;

/**
 * The JSON Schema validator the SDK wants for elicitation, which this server never sends. By default each
 * SDK Server builds its own Ajv with every format: milliseconds at start-up and again for every HTTP request
 * (one Server per POST). This one loads Ajv and builds a single instance the first time something asks for
 * it (the bundle leaves the SDK's default out: see rollup.config.mjs).
 */
const sharedSchemaValidator: jsonSchemaValidator = {
  getValidator: (schema) => {
    if (ajvValidator === undefined) {
      const sdk = createRequire(import.meta.url)('@modelcontextprotocol/sdk/validation/ajv') as typeof import('@modelcontextprotocol/sdk/validation/ajv');
      ajvValidator = new sdk.AjvJsonSchemaValidator();
    }
    return ajvValidator.getValidator(schema);
  },
};
