import type { UpstreamRequest } from '../../core/plugin/upstream-types.js';

/**
 * A route whose body is made when it is first read: the validate stage reads it (to prepare the request
 * policy decides on) on every call, while start-up, which computes each route only to learn its method, never
 * does, so the Markdown converters are not loaded then.
 */
export function withBody(request: Omit<UpstreamRequest, 'body'>, body: () => unknown): UpstreamRequest {
  let made: { value: unknown } | undefined;
  return {
    ...request,
    get body(): unknown {
      made ??= { value: body() };
      return made.value;
    },
  };
}
