import { Compile } from 'typebox/compile';
import { compiledInput, type CompiledInput } from '../pipeline/prepare-call.js';
import { StartupError } from '../errors/tool-error.js';
import type { Logger } from '../logging/logger.js';
import { chainForTool, type Contribution, type Finish, type HandlerStage, type ToolChain } from '../pipeline/stage-chain.js';
import type { DevtoolsPlugin, PluginSpec, ToolDefinition, ToolDescriptor } from '../plugin/contract.js';
import { readToolSpecs, type DeclaredTool, type PluginClass } from '../plugin/metadata.js';
import { schemaProblems } from '../schema/schema-check.js';
import { checkedRouteMethod, interceptorSlots, type InterceptorSlot } from './pipeline-parts.js';
import { toolDescriptor } from './tool-descriptor.js';
import { checkToolName } from './declared-names.js';
import { checkToolSpec, checkUpstreamExposed } from './spec-checks.js';
import type { Settings } from '../config/settings.js';
import { DeclarationError, declaredWire } from '../pipeline/declared-wire.js';
import { checkFurtherRoutes } from '../pipeline/further-routes.js';
import type { DeclaredWire } from '../plugin/tool-definition.js';
import type { UpstreamBinding } from '../plugin/upstream-types.js';

/** A plugin the kernel has constructed and booted. */
export interface BootedPlugin {
  spec: PluginSpec;
  cls: PluginClass;
  instance?: DevtoolsPlugin;
}

export interface RegisteredTool {
  definition: ToolDefinition;
  /** The compiled input schema (and whether it declares defaults); compiled on first use for prevalidated plugins (see `lazyInput`). */
  input: () => CompiledInput;
  /** Its interceptor chain, the kernel's own slots included (filled for each call). */
  interceptors: InterceptorSlot[];
  chain: ToolChain;
  /** Its `tools/list` entry, made on first read. */
  readonly descriptor: ToolDescriptor;
  /** Whether it can change something, when start-up can tell (MCP_READ_ONLY decides by it). */
  writes: boolean | undefined;
}

/** What the registry reads besides the decorators: each plugin's settings, and whether the server is read-only. */
export interface RegistryOptions {
  settingsOf(plugin: string): Settings;
  readOnlyServer: boolean;
}

function eagerInput(schema: ToolDefinition['spec']['input']): () => CompiledInput {
  const input = compiledInput(Compile(schema), schema);
  return () => input;
}

/**
 * A prevalidated plugin's input schema, compiled by its first call: compiling every tool's schema was a fifth
 * of start-up, and a server seldom calls all of its tools. The test suite compiles every built-in schema.
 */
function lazyInput(schema: ToolDefinition['spec']['input']): () => CompiledInput {
  let compiled: CompiledInput | undefined;
  return () => (compiled ??= compiledInput(Compile(schema), schema));
}

/**
 * The spec a tool is served with: a GraphQL passthrough whose limits allow mutations (an operator's setting) is
 * listed and decided as a write, whatever its annotations say of its query-only default.
 */
function servedSpec(spec: ToolDefinition['spec'], wire: DeclaredWire): ToolDefinition['spec'] {
  if (wire.graphql?.limits?.mutations !== true || !spec.annotations.readOnlyHint) return spec;
  return { ...spec, annotations: { ...spec.annotations, readOnlyHint: false, destructiveHint: true } };
}

/**
 * What runs a call of a declared tool: a `defineTool` value's handler given the plugin instance as its
 * dependencies, or the `@Tool` method called on the instance.
 */
function boundHandler(declared: DeclaredTool, instance: object, where: string): ToolDefinition['handler'] {
  if (declared.method === undefined) {
    const { handler } = declared;
    if (typeof handler !== 'function')
      throw new StartupError(`${where}: its handler is not a function. Give defineTool a handler: async (ctx, deps) => ({ value }).`);
    return (ctx) => handler(ctx, instance as never);
  }
  const fn = (instance as Record<string | symbol, unknown>)[declared.method];
  if (typeof fn !== 'function') throw new StartupError(`${where}: ${String(declared.method)} is not a method.`);
  return (ctx) => (fn as (c: typeof ctx) => Promise<never>).call(instance, ctx);
}

/**
 * The tools of the booted plugins, read from their `tools` and decorators once at start-up: each checked (unique name,
 * object input schema, a handler behind it), its pipeline composed and its `tools/list` entry built. Everything
 * wrong with a tool fails here, naming the tool and its plugin.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  /** @param prevalidated plugins whose schemas the test suite checks: not checked again at every start. */
  constructor(
    private readonly logger: Logger,
    private readonly prevalidated: ReadonlySet<PluginClass> | undefined,
    private readonly options: RegistryOptions,
  ) {}

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  values(): IterableIterator<RegisteredTool> {
    return this.tools.values();
  }

  get size(): number {
    return this.tools.size;
  }

  /** Registers every tool of a booted plugin (its `tools` values and `@Tool` methods), with the chain of the stages and interceptors that apply to it. */
  register(plugin: BootedPlugin, stages: readonly Contribution[], interceptors: readonly InterceptorSlot[], handler: HandlerStage, finish: Finish): void {
    const instance = plugin.instance!;
    const declaredTools = readToolSpecs(plugin.cls);
    for (const [index, declared] of declaredTools.entries()) {
      const { spec } = declared;
      if (spec === null || typeof spec !== 'object') {
        throw new StartupError(
          `Plugin "${plugin.spec.name}": tools[${index}] is not a tool. Make each with defineTool({ name, title, description, annotations, input, route, handler }).`,
        );
      }
      checkToolName(spec.name, plugin.spec.name);
      const where = `Tool "${spec.name}" of plugin "${plugin.spec.name}"`;
      const owner = this.tools.get(spec.name);
      if (owner) throw new StartupError(`${where}: the name is already taken by plugin "${owner.definition.plugin}". Tool names must be unique.`);
      checkToolSpec(spec, where);
      const checked = !this.prevalidated?.has(plugin.cls);
      const problem = checked ? schemaProblems(spec.input) : undefined;
      if (problem !== undefined) throw new StartupError(`${where}: invalid input schema: ${problem}`);
      if ((spec.input as { type?: unknown }).type !== 'object') throw new StartupError(`${where}: the input schema must be an object schema.`);
      const run = boundHandler(declared, instance, where);
      const checkedSpec = this.checkEnvelope(spec, where, checked);
      const routeMethod = checkedSpec.graphql === undefined ? checkedRouteMethod(checkedSpec, where) : undefined;
      const wire = this.wireOf(checkedSpec, where, plugin.spec.name, instance.upstream, routeMethod);
      const usable = servedSpec(checkedSpec, wire);
      const definition: ToolDefinition = { spec: usable, plugin: plugin.spec.name, handler: run, upstream: instance.upstream, wire };
      // Made when a tools/list first shows the tool: one the configuration hides (a vendor without credentials)
      // never needs its copy of the input schema.
      let descriptor: ToolDescriptor | undefined;
      this.tools.set(spec.name, {
        definition,
        input: checked ? eagerInput(spec.input) : lazyInput(spec.input),
        interceptors: interceptorSlots(interceptors, usable),
        chain: chainForTool(stages, usable, handler, finish),
        get descriptor(): ToolDescriptor {
          return (descriptor ??= toolDescriptor(usable));
        },
        writes: wire.writes,
      });
    }
    // After each tool's own checks, which say more precisely what is wrong with a route than its missing client.
    const routed = declaredTools.filter(({ spec }) => spec.route !== undefined || spec.graphql !== undefined).map(({ spec }) => spec.name);
    checkUpstreamExposed(plugin.spec.name, instance, routed);
  }

  /** What the tool may send, read from its spec; a declaration that cannot be used fails start-up here. */
  private wireOf(spec: ToolDefinition['spec'], where: string, plugin: string, upstream: UpstreamBinding | undefined, method: string | undefined): DeclaredWire {
    try {
      checkFurtherRoutes(spec, upstream);
      return declaredWire(spec, { settings: this.options.settingsOf(plugin), readOnlyServer: this.options.readOnlyServer, method });
    } catch (error) {
      if (error instanceof DeclarationError) throw new StartupError(`${where}: ${error.message}`);
      throw error;
    }
  }

  /** A broken envelope schema is a plugin bug, not a reason to refuse the tool: register it without one. */
  private checkEnvelope(spec: ToolDefinition['spec'], where: string, againstMetaSchema: boolean): ToolDefinition['spec'] {
    // Prevalidated (built-in) envelopes are checked by the test suite, not at every start.
    if (spec.envelope === undefined || !againstMetaSchema) return spec;
    let problem = schemaProblems(spec.envelope);
    if (problem === undefined) {
      try {
        Compile(spec.envelope);
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    if (problem === undefined) return spec;
    this.logger.warn({ tool: spec.name }, `${where}: envelope schema cannot be compiled (${problem}); the tool is registered without structured output.`);
    const { envelope: _dropped, ...rest } = spec;
    return rest;
  }
}
