import type { CallToolResult } from '@modelcontextprotocol/server';
import { injectable, container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Settings } from '../config/settings.js';
import { StartupError } from '../errors/tool-error.js';
import { callLineLogger, type CallReport, type CallReporting } from './call-log.js';
import type { Logger } from '../logging/logger.js';
import { noMetrics, type Metrics } from '../metrics/metrics.js';
import { successAnswer } from '../pipeline/answer.js';
import { coreStages, handlerStage, type CoreStageDeps } from '../pipeline/core-stages.js';
import type { Principal } from '../identity/principal.js';
import { requestGate } from '../pipeline/request-gate.js';
import type { Contribution } from '../pipeline/stage-chain.js';
import { orderCallSteps, orderInterceptors, orderStages, pipelineTable, qualifiedName } from '../pipeline/pipeline.js';
import { compose, type Onion } from '../flow/compose.js';
import type { DevtoolsPlugin, ServiceLookup, ToolDefinition, ToolDescriptor } from '../plugin/contract.js';
import type { UpstreamInterceptor } from '../plugin/tool-context.js';
import { injectsToken, readPluginSpec, type PluginClass } from '../plugin/metadata.js';
import { liveScrub, secretScrubber, type Scrub } from '../result/secret-scrubber.js';
import { didYouMean } from '../text/nearest-names.js';
import { systemClock, type Clock, type KeyValueStore } from '../store/key-value-store.js';
import { TOKENS } from '../tokens.js';
import { BodyBudget } from '../http/body-budget.js';
import { RateGovernor } from '../http/rate-governor.js';
import { ProvidedServices } from './provided-services.js';
import { orderByDependencies, withTimeout } from './plugin-order.js';
import { ToolRegistry, type BootedPlugin } from './tool-registry.js';
import { descriptorFor } from './tool-descriptor.js';
import { ToolSelection, type Reach } from './tool-selection.js';
import { vendorsWithoutCredentials } from './vendor-credentials.js';
import type { RegisteredTool } from './tool-registry.js';
import { programCatalogue } from './program-catalogue.js';
import { collectToolsets } from './toolsets.js';
import { checkPluginName } from './declared-names.js';
import { checkPluginVersion } from './spec-checks.js';
import { ToolsetDirectory } from './toolset-directory.js';
import { observingInterceptors, requestObserver } from './upstream-observer.js';
import { acceptedRequestId } from './call-span.js';
import { callSteps, InFlightCalls, runToolChain, UnknownToolError, type CallInProgress, type CallOptions, type CallOutcome } from './call-steps.js';
import { withArtifactLinks } from './artifact-links.js';
import { contributionsOf, interceptorsOf, type PlacedInterceptor } from './pipeline-parts.js';
import { CoreSettings } from '../config/core-settings.js';

export interface KernelOptions {
  plugins: readonly PluginClass[];
  settings: Settings;
  logger: Logger;
  store: KeyValueStore;
  clock?: Clock;
  container?: DependencyContainer;
  /**
   * Plugins whose tool schemas the test suite checks against the JSON Schema meta-schema and compiles (the
   * built-ins): start-up skips both for them (compiling the meta-schema alone was a fifth of start-up), and
   * their input schemas are compiled by each tool's first call. Every other plugin is checked at start-up.
   */
  prevalidated?: ReadonlySet<PluginClass>;
  /** Where tool calls, upstream requests and artifacts are counted (nothing counted by default). */
  metrics?: Metrics;
  /** Builds `TOKENS.ArtifactStore` before any plugin is constructed (the artifacts plugin's; none by default). */
  artifactStore?: ArtifactStoreFactory;
}

/** What an artifact store is built from; the implementation belongs to the artifacts plugin. */
export type ArtifactStoreFactory = (services: { store: KeyValueStore; clock: Clock; settings: Settings; logger: Logger; metrics: Metrics }) => ArtifactStore;

export { UnknownToolError, type CallOptions, type ClientChannel } from './call-steps.js';

type LoadedPlugin = BootedPlugin;

const DEFAULT_BOOT_TIMEOUT_MS = 10_000;

/**
 * The kernel: boots plugins in dependency order inside a tsyringe container, reads their tools, composes each
 * tool's pipeline once, and runs calls through it. Everything that can be wrong with a plugin fails here, at
 * start-up, with the plugin named; a call never finds a declaration wanting.
 */
export class Kernel {
  private readonly tools: ToolRegistry;
  private readonly booted: LoadedPlugin[] = [];
  private readonly inFlight = new InFlightCalls();
  private readonly bodies: BodyBudget;
  private readonly container: DependencyContainer;
  /** Settings' secrets until the plugins have booted; then their upstream clients' credential forms too. */
  private scrub: Scrub;
  private readonly reporting: CallReporting;
  private selection: ToolSelection | undefined;
  private readonly toolsets: ToolsetDirectory;
  /** What the kernel learns of each call in flight, by its scope (Call.scope). */
  private readonly reports = new WeakMap<object, CallReport>();
  /** The call-wide steps around every tool's chain, in pipeline.ts's order. */
  private frame: Onion<CallInProgress, CallOutcome> | undefined;
  /**
   * The tools an MCP client is served whatever it enabled, when that is fixed (no dynamic toolsets): a call's
   * lookup then asks no more than this set.
   */
  private servedToClients: ReadonlySet<string> = new Set();
  /** Every stage contributor and interceptor in running order (pipeline.ts), for pipelineTable. */
  private ordered: { stages: readonly Contribution[]; interceptors: ReadonlyArray<{ plugin: string; name: string }> } = { stages: [], interceptors: [] };
  private closed = false;

  private constructor(private readonly options: KernelOptions) {
    this.container = (options.container ?? rootContainer).createChildContainer();
    this.tools = new ToolRegistry(options.logger, options.prevalidated, {
      settingsOf: (plugin) => options.settings.forOwner(plugin),
      readOnlyServer: options.settings.of(CoreSettings).MCP_READ_ONLY,
    });
    this.scrub = secretScrubber(options.settings.secretValues());
    this.bodies = new BodyBudget(options.settings.of(CoreSettings).MCP_MAX_INFLIGHT_BODY_BYTES);
    this.reporting = { logger: callLineLogger(options.logger), metrics: options.metrics ?? noMetrics };
    this.toolsets = new ToolsetDirectory(options.store);
  }

  /** Tool calls in progress (the metrics' gauge). */
  get callsInFlight(): number {
    return this.inFlight.size;
  }

  /** Upstream body bytes held by calls in flight (tests and the benchmark). */
  get bodyBytesInFlight(): number {
    return this.bodies.inUse;
  }

  static async start(options: KernelOptions): Promise<Kernel> {
    const kernel = new Kernel(options);
    try {
      await kernel.boot();
    } catch (error) {
      await kernel.close().catch(() => {});
      throw error;
    }
    return kernel;
  }

  get settings(): Settings {
    return this.options.settings;
  }

  get logger(): Logger {
    return this.options.logger;
  }

  /** Resolve a service a plugin provided (tests, the CLI's admin commands). */
  resolve<T>(token: string): T {
    return this.container.resolve<T>(token);
  }

  /** Plugin names in boot order. */
  get plugins(): string[] {
    return this.booted.map((p) => p.spec.name);
  }

  private async boot(): Promise<void> {
    const { settings, logger, store } = this.options;
    const services = new ProvidedServices(this.container);
    services.serve(TOKENS.Settings, settings);
    services.serve(TOKENS.Store, store);
    const clock = this.options.clock ?? systemClock;
    services.serve(TOKENS.Clock, clock);
    const { metrics } = this.reporting;
    services.serve(TOKENS.Metrics, metrics);
    const artifacts = this.options.artifactStore?.({ store, clock, settings, logger, metrics });
    if (artifacts !== undefined) services.serve(TOKENS.ArtifactStore, artifacts);
    // The scrubber is rebuilt once plugins have named their derived secret forms: plugins and the core stages get
    // one stable front to it.
    const scrub = liveScrub(() => this.scrub);
    services.serve(TOKENS.Scrubber, scrub);
    services.serve(TOKENS.Toolsets, this.toolsets);
    services.serve(TOKENS.ToolCatalogue, programCatalogue(this));
    const lookup: ServiceLookup = {
      find: <T>(token: symbol | string) => (this.container.isRegistered(token, true) ? this.container.resolve<T>(token) : undefined),
    };
    services.serve(TOKENS.Services, lookup);

    const loaded = this.options.plugins.map((cls): LoadedPlugin => {
      const spec = readPluginSpec(cls);
      if (spec === undefined) throw new StartupError(`${cls.name || 'A class'} is not a plugin: decorate it with @Plugin({ name, version }).`);
      checkPluginName(spec.name, cls.name);
      checkPluginVersion(spec);
      return { spec, cls };
    });
    const contributions: Contribution[] = [];
    const interceptors: PlacedInterceptor[] = [];
    for (const plugin of orderByDependencies(loaded)) {
      const name = `Plugin "${plugin.spec.name}"`;
      const scope = this.container.createChildContainer();
      scope.register(TOKENS.Logger, { useValue: logger.child({ plugin: plugin.spec.name }) });
      scope.register(TOKENS.Settings, { useValue: this.options.settings.forOwner(plugin.spec.name) });
      // A plugin built against its own copy of mcp-devtools was made injectable by that copy's tsyringe, whose
      // registry this container cannot see; the @inject tokens live in the shared Reflect metadata, so re-reading
      // them here lets such a plugin resolve. Idempotent for plugins of this copy.
      injectable()(plugin.cls);
      const instance = await withTimeout(`${name} construction`, DEFAULT_BOOT_TIMEOUT_MS, () => scope.resolve(plugin.cls) as DevtoolsPlugin);
      plugin.instance = instance;
      await withTimeout(`${name} boot`, plugin.spec.bootTimeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS, () =>
        instance.boot?.({ provide: (token, value) => services.provide(plugin.spec.name, token, value) }),
      );
      this.booted.push(plugin);
      contributions.push(...contributionsOf(plugin.spec.name, instance.middleware?.() ?? []));
      interceptors.push(...interceptorsOf(plugin.spec.name, instance.interceptors?.() ?? []));
    }
    this.scrub = secretScrubber(
      settings.secretValues(),
      this.booted.flatMap((p) => p.instance?.upstream?.secretForms?.() ?? []),
    );
    const core = settings.of(CoreSettings);
    const readOnlyServer = core.MCP_READ_ONLY;
    const deps: CoreStageDeps = {
      inputFor: (tool) => this.tools.get(tool)!.input(),
      validated: (call) => {
        const report = this.reports.get(call.scope);
        if (report !== undefined) report.prepared = call.prepared;
      },
      interceptorsFor: (call) => {
        const report = this.reports.get(call.scope);
        const own: Record<string, UpstreamInterceptor> = {
          'request-gate': requestGate(call, readOnlyServer),
          ...observingInterceptors((seen) => report && (report.observed = seen), metrics),
        };
        // Each slot filled with the plugin's interceptor or the kernel's own for this call.
        return this.tools.get(call.tool.spec.name)!.interceptors.map((slot) => slot.interceptor ?? own[slot.name]!);
      },
      observeRequestFor: (call) => {
        const report = this.reports.get(call.scope);
        return requestObserver(call, { metrics, scrub }, (id) => report && (report.upstreamRequestId = id));
      },
      ...(core.MCP_RATE_LIMIT_GOVERNOR && {
        rateLimits: new RateGovernor({
          store,
          logger: logger.child({ component: 'rate-limits' }),
          metrics,
          maxWaitMs: core.MCP_RATE_LIMIT_MAX_WAIT_SECONDS * 1000,
          pacePercent: core.MCP_RATE_LIMIT_PACE_PERCENT,
        }),
      }),
      scrub,
      maxValueNodes: core.MCP_MAX_RESPONSE_BYTES + 1024,
      readOnlyServer,
      adviseFor: (call) => async (tool) => {
        const enabled = this.toolsets.dynamic ? await this.toolsets.enabled(call.principal) : undefined;
        return this.selection?.advise(tool, enabled) ?? tool;
      },
    };
    // The order is decided once for all tools (pipeline.ts): each tool's chain is the part of it that applies.
    const all = orderStages([...coreStages(deps), ...contributions]);
    const placedInterceptors = orderInterceptors(interceptors);
    this.ordered = { stages: all, interceptors: placedInterceptors };
    const handler = handlerStage(deps);
    for (const plugin of this.booted) this.tools.register(plugin, all, placedInterceptors, handler, successAnswer);
    this.frame = this.callFrame(this.providedArtifactStore());
    const tools = [...this.tools.values()];
    const marks = new Set(tools.filter((t) => t.definition.spec.savesArtifacts !== undefined).map((t) => t.definition.plugin));
    const injects = new Set(this.booted.filter((p) => injectsToken(p.cls, TOKENS.ArtifactStore)).map((p) => p.spec.name));
    const savesArtifacts = ({ spec, plugin }: ToolDefinition): boolean => spec.savesArtifacts ?? (injects.has(plugin) && !marks.has(plugin));
    this.selection = new ToolSelection(
      settings,
      tools.map((t) => ({
        definition: t.definition,
        writes: t.writes,
        canSpill: savesArtifacts(t.definition) || t.chain.names.some((n) => n.startsWith('spill:')),
      })),
      collectToolsets(
        this.booted.map((p) => p.spec),
        tools.map((t) => t.definition),
      ),
      vendorsWithoutCredentials(
        this.booted.map((p) => ({ name: p.spec.name, upstream: p.instance?.upstream, hasCredentials: p.instance?.hasCredentials?.bind(p.instance) })),
      ),
    );
    this.toolsets.attach(this.selection);
    if (!this.toolsets.dynamic) this.servedToClients = new Set(tools.map((t) => t.definition.spec.name).filter((name) => this.hiddenBy(name) === undefined));
    // The tools a client is offered (MCP_TOOLSETS, MCP_TOOLS, MCP_READ_ONLY... applied), not all that are registered.
    logger.info({ plugins: this.plugins, tools: this.servedDefinitions().length, store: store.kind }, 'kernel started');
    const vendors = this.selection.defaultVendors();
    if (vendors !== undefined) {
      // One reason so far (no credentials): the vendors are listed once, the reason after them.
      const reasons = [...new Set(Object.values(vendors.notServed))].join('; ');
      logger.info(
        vendors,
        `default tools: serving ${vendors.served.join(', ') || 'no vendor'}; not ${Object.keys(vendors.notServed).join(', ')} (${reasons}). Configure a vendor's credentials (or <VENDOR>_CREDENTIALS=user), or name it in --toolsets (MCP_TOOLSETS), to serve it`,
      );
    }
  }

  /**
   * What in the configuration hides a registered tool (MCP_TOOLSETS, MCP_TOOLS, MCP_EXCLUDE_TOOLS,
   * MCP_READ_ONLY) from a caller that enabled `enabled` (dynamic toolsets); undefined if served.
   */
  hiddenBy(tool: string, enabled?: ReadonlySet<string>, reach?: Reach): string | undefined {
    return this.selection?.hiddenBy(tool, enabled, reach);
  }

  /** Whether callers enable toolsets as they go (MCP_DYNAMIC_TOOLSETS): their tool lists change. */
  get dynamicToolsets(): boolean {
    return this.toolsets.dynamic;
  }

  /** The toolsets a caller has enabled (MCP_DYNAMIC_TOOLSETS; always empty without it): pass them to listTools. */
  enabledToolsets(principal: Principal): Promise<ReadonlySet<string>> {
    return this.toolsets.enabled(principal);
  }

  /** The definitions of the tools served (the `tools` command). */
  servedDefinitions(enabled?: ReadonlySet<string>): ToolDefinition[] {
    return [...this.tools.values()].filter((t) => this.hiddenBy(t.definition.spec.name, enabled) === undefined).map((t) => t.definition);
  }

  /** With nothing named: the vendors the default set serves and why the others are left out (see ToolSelection). */
  defaultVendors(): { served: string[]; notServed: Record<string, string> } | undefined {
    return this.selection?.defaultVendors();
  }

  /** The toolset a tool belongs to. */
  toolsetOf(tool: string): string | undefined {
    return this.selection?.toolsetOfTool(tool);
  }

  /**
   * The `tools/list` answer for a client that negotiated `protocolVersion` and enabled `enabled` (dynamic
   * toolsets); with `reach` 'program', the tools a program run by `execute` reaches instead.
   */
  listTools(protocolVersion?: string, enabled?: ReadonlySet<string>, reach?: Reach): ToolDescriptor[] {
    const out: ToolDescriptor[] = [];
    for (const tool of this.tools.values()) {
      if (this.hiddenBy(tool.definition.spec.name, enabled, reach) !== undefined) continue;
      let descriptor = tool.descriptor;
      for (const plugin of this.booted) {
        if (plugin.instance?.describeTool) descriptor = plugin.instance.describeTool(tool.definition.spec, descriptor, protocolVersion);
      }
      out.push(descriptorFor(descriptor, protocolVersion));
    }
    return out;
  }

  /**
   * A tool's pipeline as composed at start-up: its stage middleware (`stage:plugin/name`) and its upstream
   * interceptors (`plugin/name`; the kernel's own are made per call), each in running order. The golden test
   * holds every built-in tool's to a committed file.
   */
  /**
   * The whole order as data: the call-wide steps, then each stage's contributors and the upstream interceptors,
   * as pipeline.ts placed them for the plugins this kernel runs (test/golden/call-order.txt prints it).
   */
  pipelineOrder(): { callSteps: string[]; stages: ReturnType<typeof pipelineTable> } {
    return { callSteps: orderCallSteps().map(qualifiedName), stages: pipelineTable(this.ordered.stages, this.ordered.interceptors) };
  }

  pipelineOf(tool: string): { stages: readonly string[]; interceptors: readonly string[] } | undefined {
    const registered = this.tools.get(tool);
    if (registered === undefined) return undefined;
    return { stages: registered.chain.names, interceptors: registered.interceptors.map(qualifiedName) };
  }

  /** The tool definitions, for the CLI and the test kit. */
  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map((t) => t.definition);
  }

  /** Runs one tool call through its pipeline. Unknown or hidden tools throw UnknownToolError. */
  async call(name: string, args: Record<string, unknown> | undefined, principal: Principal, options: CallOptions = {}): Promise<CallToolResult> {
    return (await this.callTimed(name, args, principal, options)).result;
  }

  /** Like `call`, also returning microseconds per stage and sub-step (the benchmark's stage breakdown). */
  callTimed(name: string, args: Record<string, unknown> | undefined, principal: Principal, options: CallOptions = {}): Promise<CallOutcome> {
    // Before boot ends there is no tool to call; once closed, the lookup refuses every name.
    if (this.frame === undefined) return Promise.reject(new UnknownToolError(name));
    return this.frame.run({ name, args, principal, options });
  }

  /** The call-wide steps (call-steps.ts) in pipeline.ts's order, around the tool's chain. */
  private callFrame(artifacts: ArtifactStore | undefined): Onion<CallInProgress, CallOutcome> {
    const steps = callSteps({
      lookup: (name, principal, reach) => this.lookup(name, principal, reach),
      inFlight: this.inFlight,
      acceptedRequestId: (sent) => this.acceptedRequestId(sent),
      reporting: this.reporting,
      leaseBody: () => this.bodies.lease(),
      enabledToolsets: (principal) => this.toolsets.enabled(principal),
      ...(artifacts && { linkArtifacts: (result: CallToolResult, owner: Principal) => withArtifactLinks(result, owner, artifacts) }),
    });
    const layers = orderCallSteps().map((placed) => ({ name: qualifiedName(placed), run: steps[placed.name]! }));
    return compose(layers, (frame) => runToolChain(frame, this.reports, this.options.logger));
  }

  /** The artifact store the kernel or a plugin provides, if any (a kernel embedded without artifacts has none). */
  private providedArtifactStore(): ArtifactStore | undefined {
    try {
      return this.container.resolve<ArtifactStore>(TOKENS.ArtifactStore);
    } catch {
      return undefined;
    }
  }

  /** The tool a caller may call by that name; UnknownToolError naming the nearest names or what hides it. */
  private async lookup(name: string, principal: Principal, reach: Reach | undefined): Promise<RegisteredTool> {
    const tool = this.tools.get(name);
    if (tool !== undefined && !this.closed && reach === undefined && this.servedToClients.has(name)) return tool;
    if (tool === undefined || this.closed)
      throw new UnknownToolError(
        name,
        this.closed
          ? ''
          : `.${didYouMean(
              name,
              this.servedDefinitions().map((d) => d.spec.name),
            )}`,
      );
    const hidden = this.hiddenBy(name, this.toolsets.dynamic ? await this.toolsets.enabled(principal) : undefined, reach);
    if (hidden !== undefined) throw new UnknownToolError(name, `: this server has it, but ${hidden}.`);
    return tool;
  }

  /**
   * A caller's request id, if it is one (call-span.ts) and holds no configured secret: it goes into the audit
   * record, a span and a header sent to the vendor, none of which the log's scrubbing reaches.
   */
  private acceptedRequestId(sent: string | undefined): string | undefined {
    const id = acceptedRequestId(sent);
    return id !== undefined && this.scrub(id) === id ? id : undefined;
  }

  /**
   * Stops taking calls, lets in-flight ones finish for up to `graceMs`, cancels the rest, then closes plugins in
   * reverse boot order and the store. Errors while closing are logged, never thrown.
   */
  async close(graceMs = 0): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.inFlight.drain(graceMs);
    for (const plugin of [...this.booted].reverse()) {
      try {
        await withTimeout(`Plugin "${plugin.spec.name}" close`, DEFAULT_BOOT_TIMEOUT_MS, () => plugin.instance?.close?.());
      } catch (error) {
        this.options.logger.warn({ err: error, plugin: plugin.spec.name }, 'plugin close failed');
      }
    }
    await this.options.store.close().catch((error: unknown) => this.options.logger.warn({ err: error }, 'store close failed'));
  }
}
