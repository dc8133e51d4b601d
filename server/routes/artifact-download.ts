import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ArtifactChunk, ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { isToolError } from '../../core/errors/tool-error.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Principal } from '../../core/identity/principal.js';
import { TOKENS } from '../../core/tokens.js';
import { noAuthentication, type Authenticator } from '../auth/authenticator.js';
import { originAllowed } from '../http/origin-check.js';
import type { Route } from '../http/route.js';
import { byteRange } from '../http/byte-range.js';

const PATH = /^\/artifacts\/([^/]+)$/;
const NOT_FOUND = JSON.stringify({ error: 'Artifact not found or expired' });

export interface DownloadOptions {
  artifacts: ArtifactStore;
  authenticator?: Authenticator;
  allowedOrigins: readonly string[];
  logger: Logger;
}

/**
 * `GET /artifacts/{artifactId}` over Streamable HTTP: an artifact whole, for its owner, with the same bearer
 * authentication as `/mcp` (401 without a token). Another principal's artifact, an unknown id and an expired one
 * get the same 404, as `artifact_read` answers them. `Range` (one range) is answered 206 so a large log can be
 * resumed; the body streams chunk by chunk from the store, never held whole.
 */
export function artifactDownloadRoutes(options: DownloadOptions): Route {
  const authenticator = options.authenticator ?? noAuthentication;
  return async (request, response) => {
    const match = PATH.exec((request.url ?? '/').split('?', 1)[0]!);
    if (match === null) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, JSON.stringify({ error: 'Use GET (or HEAD) /artifacts/{artifactId}.' }), { allow: 'GET, HEAD' });
      return true;
    }
    if (!originAllowed(request.headers.origin, options.allowedOrigins)) {
      send(response, 403, JSON.stringify({ error: `Origin ${request.headers.origin} is not allowed; add it to MCP_HTTP_ALLOWED_ORIGINS.` }));
      return true;
    }
    const auth = await authenticator.authenticate(request);
    if ('failure' in auth) {
      const status = auth.status ?? 401;
      send(
        response,
        status,
        JSON.stringify({ error: `${status === 401 ? 'Unauthorized' : 'Unavailable'}: ${auth.failure}` }),
        status === 401 ? { 'www-authenticate': 'Bearer realm="mcp-devtools"' } : {},
      );
      return true;
    }
    await download(options, auth.principal, decodedId(match[1]!), request, response);
    return true;
  };
}

async function download(options: DownloadOptions, owner: Principal, artifactId: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  let first: ArtifactChunk;
  try {
    first = await options.artifacts.read(owner, artifactId, 0, 1);
  } catch (error) {
    if (!isToolError(error) || error.code !== 'artifact_not_found') throw error;
    send(response, 404, NOT_FOUND);
    return;
  }
  const range = byteRange(request.headers.range, first.bytes);
  const common = { 'accept-ranges': 'bytes', 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff', etag: `"${artifactId}"` };
  if (range === 'unsatisfiable') {
    send(response, 416, JSON.stringify({ error: `The range is outside the artifact's ${first.bytes} bytes.` }), {
      ...common,
      'content-range': `bytes */${first.bytes}`,
    });
    return;
  }
  const { start, end } = range ?? { start: 0, end: first.bytes - 1 };
  response.writeHead(range === undefined ? 200 : 206, {
    ...common,
    'content-type': first.mimeType,
    'content-length': String(Math.max(0, end - start + 1)),
    'content-disposition': `attachment; filename="${artifactId}"`,
    ...(range === undefined ? {} : { 'content-range': `bytes ${start}-${end}/${first.bytes}` }),
  });
  if (request.method === 'HEAD' || end < start) {
    response.end();
    return;
  }
  try {
    for (let offset = start; offset <= end && !response.destroyed;) {
      const chunk = await options.artifacts.read(owner, artifactId, offset, end - offset + 1);
      const bytes = Buffer.from(chunk.data, 'base64');
      if (bytes.length === 0) break;
      if (!response.write(bytes)) await new Promise<void>((resolve) => response.once('drain', resolve).once('close', resolve));
      offset += bytes.length;
    }
    response.end();
  } catch (error) {
    // Expired or evicted halfway: the length promised cannot be kept, so the connection is cut, never padded.
    options.logger.warn({ err: error, artifactId }, 'artifact download stopped before its end');
    response.destroy();
  }
}

/** The id as written in the path; a malformed escape is an id no artifact has. */
function decodedId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

/** The download routes of a running server: its artifact store, its authenticator, its allowed origins. */
export function kernelArtifactDownloads(kernel: Kernel, authenticator: Authenticator | undefined, logger: Logger): Route {
  const allowedOrigins = kernel.settings
    .get<string>('MCP_HTTP_ALLOWED_ORIGINS')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return artifactDownloadRoutes({ artifacts: kernel.resolve<ArtifactStore>(TOKENS.ArtifactStore), authenticator, allowedOrigins, logger });
}
