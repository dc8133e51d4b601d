import { createLogger } from '../../core/logging/logger.js';
import { noProgress, type ToolContext } from '../../core/plugin/tool-context.js';
import { LOCAL_PRINCIPAL } from '../../core/identity/principal.js';

/** The context a handler gets, for calling an UpstreamClient directly: no interceptors, a silent logger. */
export function plainToolContext(extra: Partial<ToolContext> = {}): ToolContext {
  return {
    toolName: 'ci_get',
    args: {},
    route: { method: 'GET', path: '/' }, // what the route computed; each test sends its own request
    principal: LOCAL_PRINCIPAL,
    signal: new AbortController().signal,
    logger: createLogger({ level: 'silent', secrets: [], destination: { write: () => true } }),
    interceptors: [],
    time: () => {},
    progress: noProgress,
    ...extra,
  };
}
