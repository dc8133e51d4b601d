import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The fetch-API view of a Node request whose body this server has already read (and size-checked): the SDK's
 * HTTP entry points take a web `Request` and the parsed body beside it. Its signal aborts when the client goes
 * away before the answer is complete, which cancels the call in flight.
 */
export function webRequestOf(request: IncomingMessage, response: ServerResponse, url: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) headers.append(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
  const aborted = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) aborted.abort();
  });
  return new Request(url, { method: request.method, headers, signal: aborted.signal });
}

/** Writes a fetch-API `Response` (JSON, or an SSE stream) to the Node response, stopping if the client leaves. */
export async function sendWebResponse(answer: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(answer.status, headers);
  if (answer.body === null) {
    response.end();
    return;
  }
  const reader = answer.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  response.once('close', stop);
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) response.write(chunk.value);
  } catch {
    // The stream was cancelled (the client left) or failed: nothing more can be sent.
  } finally {
    response.off('close', stop);
    response.end();
  }
}
