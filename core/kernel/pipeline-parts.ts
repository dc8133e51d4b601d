import { StartupError } from '../errors/tool-error.js';
import type { UpstreamInterceptor } from '../plugin/tool-context.js';
import type { Placed } from '../pipeline/pipeline.js';
import type { Contribution } from '../pipeline/stage-chain.js';
import { isAround, type StageMiddleware } from '../plugin/stages.js';
import type { ToolSpec } from '../plugin/contract.js';
import { routeMethod } from './route-method.js';

/** An interceptor with the plugin that contributed it. */
export interface PlacedInterceptor extends Placed {
  readonly interceptor: UpstreamInterceptor;
}

/** A plugin's middleware, each named with the plugin, for its place in the pipeline (pipeline.ts). */
export function contributionsOf(plugin: string, middleware: readonly StageMiddleware[]): Contribution[] {
  // Bound, not spread: a contribution may be a class instance whose methods live on its prototype.
  return middleware.map((m): Contribution => {
    const placed = { plugin, stage: m.stage, name: m.name, ...placement(m), ...(m.appliesTo && { appliesTo: m.appliesTo.bind(m) }) };
    return isAround(m) ? { ...placed, stage: m.stage, run: m.run.bind(m) } : { ...placed, stage: m.stage, transform: m.transform.bind(m) };
  });
}

export function interceptorsOf(plugin: string, interceptors: readonly UpstreamInterceptor[]): PlacedInterceptor[] {
  return interceptors.map((interceptor) => ({ plugin, name: interceptor.name, ...placement(interceptor), interceptor }));
}

/** Where a contribution declared its place: copied, so a plugin cannot move it after start-up. */
function placement(m: { before?: readonly string[]; after?: readonly string[] }): Pick<Placed, 'before' | 'after'> {
  return { ...(m.before && { before: [...m.before] }), ...(m.after && { after: [...m.after] }) };
}

/** A place in a tool's interceptor chain: a plugin's interceptor, or one the kernel makes for each call. */
export type InterceptorSlot = PlacedInterceptor | (Placed & { readonly interceptor?: undefined });

/**
 * The interceptor chain of one tool: of all interceptors in running order (pipeline.ts `orderInterceptors`), the
 * kernel's own (made per call) and the plugins' that apply to the tool.
 */
export function interceptorSlots(ordered: readonly InterceptorSlot[], spec: ToolSpec): InterceptorSlot[] {
  return ordered.filter((slot) => slot.interceptor === undefined || (slot.interceptor.appliesTo?.(spec) ?? true));
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
