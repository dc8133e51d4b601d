import { StartupError } from '../errors/tool-error.js';
import type { UpstreamInterceptor } from '../plugin/tool-context.js';
import { byListedOrder, LISTED_INTERCEPTORS, qualifiedName, type Placed } from '../pipeline/pipeline.js';
import type { Contribution } from '../pipeline/stage-chain.js';
import type { StageMiddleware } from '../plugin/stages.js';
import type { ToolSpec } from '../plugin/contract.js';
import { routeMethod } from './route-method.js';

/** An interceptor with the plugin that contributed it. */
export interface PlacedInterceptor extends Placed {
  readonly interceptor: UpstreamInterceptor;
}

/** A plugin's middleware, each named with the plugin, for its place in the pipeline (pipeline.ts). */
export function contributionsOf(plugin: string, middleware: readonly StageMiddleware[]): Contribution[] {
  // Bound, not spread: a contribution may be a class instance whose methods live on its prototype.
  return middleware.map((m) => ({ plugin, stage: m.stage, name: m.name, run: m.run.bind(m), ...(m.appliesTo ? { appliesTo: m.appliesTo.bind(m) } : {}) }));
}

export function interceptorsOf(plugin: string, interceptors: readonly UpstreamInterceptor[]): PlacedInterceptor[] {
  return interceptors.map((interceptor) => ({ plugin, name: interceptor.name, interceptor }));
}

/** The interceptors of one tool, in the order pipeline.ts lists them for the upstream slot. */
export function interceptorsForTool(all: readonly PlacedInterceptor[], spec: ToolSpec): PlacedInterceptor[] {
  return byListedOrder(
    all.filter((p) => p.interceptor.appliesTo?.(spec) ?? true),
    LISTED_INTERCEPTORS,
  );
}

/** The names of a tool's whole interceptor chain: the kernel's own (added per call) around the tool's. */
export function interceptorChainNames(own: readonly PlacedInterceptor[]): string[] {
  const names = own.map(qualifiedName);
  return ['kernel/request-gate', 'kernel/call-observer', ...names, 'kernel/request-counter'];
}

/**
 * What start-up knows of a tool's route: its method, and a refusal when the annotations contradict it (a tool
 * annotated read-only whose route writes would be served under MCP_READ_ONLY and its write sent).
 */
export function checkedRouteMethod(spec: ToolSpec, where: string): string | undefined {
  const method = routeMethod(spec);
  if (method !== undefined && method !== 'GET' && spec.annotations.readOnlyHint) {
    throw new StartupError(
      `${where}: it is annotated readOnlyHint: true, but its route sends ${method}. A read-only tool sends GET requests only: annotate it readOnlyHint: false (with destructiveHint as fits), or make its route a GET.`,
    );
  }
  return method;
}
