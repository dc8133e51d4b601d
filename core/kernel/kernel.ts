import type { CallToolResult } from '@modelcontextprotocol/server';
import { context } from '@opentelemetry/api';
import { injectable, container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Settings } from '../config/settings.js';
import { StartupError } from '../errors/tool-error.js';
import { callLineLogger, reportCall, type CallReport, type CallReporting } from './call-log.js';
import type { Logger } from '../logging/logger.js';
import { noMetrics, type Metrics } from '../metrics/metrics.js';
import type { Call, CallSession, ClientInfo } from '../plugin/call.js';
import type { ProgressReporter } from '../plugin/tool-context.js';
import { successAnswer } from '../pipeline/answer.js';
import { coreStages, handlerStage, type CoreStageDeps } from '../pipeline/core-stages.js';
import type { Principal } from '../identity/principal.js';
import { requestGate } from '../pipeline/request-gate.js';
import type { Contribution } from '../pipeline/stage-chain.js';
import { qualifiedName } from '../pipeline/pipeline.js';
import type { DevtoolsPlugin, ToolDefinition, ToolDescriptor } from '../plugin/contract.js';
import { injectsToken, readPluginSpec, type PluginClass } from '../plugin/metadata.js';
import { liveScrub, secretScrubber, type Scrub } from '../result/secret-scrubber.js';
import { didYouMean } from '../text/nearest-names.js';
import { systemClock, type Clock, type KeyValueStore } from '../store/key-value-store.js';
import { TOKENS } from '../tokens.js';
import { BodyBudget } from '../http/body-budget.js';
import { InFlightCalls } from './in-flight.js';
import { ProvidedServices } from './provided-services.js';
import { orderByDependencies, withTimeout } from './plugin-order.js';
import { ToolRegistry, type BootedPlugin } from './tool-registry.js';
import { ToolSelection, type Reach } from './tool-selection.js';
import { programCatalogue } from './program-catalogue.js';
import { collectToolsets } from './toolsets.js';
import { checkPluginName } from './declared-names.js';
import { checkPluginVersion } from './spec-checks.js';
import { ToolsetDirectory } from './toolset-directory.js';
import { observingInterceptors, requestObserver } from './upstream-observer.js';
import { endCallSpan, recordedTraceId, startCallSpan, type TraceCarrier } from './call-span.js';
import { acceptedRequestId, makeRequestId } from './request-id.js';
import { contributionsOf, interceptorsOf, interceptorsOfCall, type PlacedInterceptor } from './pipeline-parts.js';
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

export interface CallOptions {
  signal?: AbortSignal;
  protocolVersion?: string;
  /** Told how far the call has come (the MCP server's `notifications/progress`, when the client asked). */
  progress?: ProgressReporter;
  /**
   * The id the caller's request carried (X-Request-Id, a traceparent's trace id): the call's log line, audit
   * record, span and upstream requests carry it. Made when absent, or when it is not a short run of visible
   * ASCII (request-id.ts): the trace id of the call's span when tracing is on, a random one otherwise.
   */
  requestId?: string;
  /** The MCP client that sent the call, as it named itself. */
  client?: ClientInfo;
  /** The conversation the call belongs to, and whether its request asked for lockdown. */
  session?: CallSession;
  /** The JSON-RPC id of the `tools/call` request, for its span. */
  jsonRpcRequestId?: string | number;
  /** The W3C trace context the request carried: the call's span continues that trace. */
  traceCarrier?: TraceCarrier;
  /**
   * Who reaches the tool: an MCP client (the default), or a program run by code mode's `execute`, which reaches
   * the tools the selection serves although MCP_CODE_MODE keeps them off the list, and never the code tools.
   */
  reach?: Reach;
}

/** A tool name the server does not offer: a JSON-RPC error, not a tool result. */
export class UnknownToolError extends Error {
  /** `detail` says what to do instead: the nearest names, or what in the configuration hides the tool. */
  constructor(
    readonly tool: string,
    detail = '',
  ) {
    super(`Unknown tool: ${tool}${detail}`);
    this.name = 'UnknownToolError';
  }
}

type LoadedPlugin = BootedPlugin;

const DEFAULT_BOOT_TIMEOUT_MS = 10_000;

/**
 * The kernel: boots plugins in dependency order inside a tsyringe container, reads their tools, composes each
 * tool's pipeline once, and runs calls through it. Everything that can be wrong with a plugin fails here, at
 * start-up, with the plugin named; nothing is discovered at call time.
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
      validatorFor: (tool) => this.tools.get(tool)!.validator(),
      validated: (call) => {
        const report = this.reports.get(call.scope);
        if (report !== undefined) report.prepared = call.prepared;
      },
      interceptorsFor: (call) => {
        const report = this.reports.get(call.scope);
        const own = { 'request-gate': requestGate(call, readOnlyServer), ...observingInterceptors((seen) => report && (report.observed = seen), metrics) };
        return interceptorsOfCall(this.tools.get(call.tool.spec.name)!.interceptors, own);
      },
      observeRequestFor: (call) => {
        const report = this.reports.get(call.scope);
        return requestObserver(call, { metrics, scrub }, (id) => report && (report.upstreamRequestId = id));
      },
      scrub,
      maxValueNodes: core.MCP_MAX_RESPONSE_BYTES + 1024,
      readOnlyServer,
    };
    const all = [...coreStages(deps), ...contributions];
    const handler = handlerStage(deps);
    for (const plugin of this.booted) this.tools.register(plugin, all, interceptors, handler, successAnswer);
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
    );
    this.toolsets.attach(this.selection);
    logger.info({ plugins: this.plugins, tools: this.tools.size, store: store.kind }, 'kernel started');
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
      out.push(descriptor);
    }
    return out;
  }

  /**
   * A tool's pipeline as composed at start-up: its stage middleware (`stage:plugin/name`) and its upstream
   * interceptors (`plugin/name`; the kernel's own are made per call), each in running order. The golden test
   * holds every built-in tool's to a committed file.
   */
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
  async callTimed(
    name: string,
    args: Record<string, unknown> | undefined,
    principal: Principal,
    options: CallOptions = {},
  ): Promise<{ result: CallToolResult; timings: Record<string, number> }> {
    const tool = this.tools.get(name);
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
    const hidden = this.hiddenBy(name, this.toolsets.dynamic ? await this.toolsets.enabled(principal) : undefined, options.reach);
    if (hidden !== undefined) throw new UnknownToolError(name, `: this server has it, but ${hidden}.`);
    return this.inFlight.run(options.signal, async (signal) => {
      const span = startCallSpan({ tool: tool.definition, ...options });
      const traceId = recordedTraceId(span);
      const requestId = this.acceptedRequestId(options.requestId) ?? traceId ?? makeRequestId();
      const report: CallReport = { tool: tool.definition, principal, requestId, client: options.client, traceId, timings: {} };
      const scope = {};
      this.reports.set(scope, report);
      const bodyLease = this.bodies.lease();
      const call: Call = {
        scope,
        tool: tool.definition,
        principal,
        signal,
        logger: this.options.logger,
        protocolVersion: options.protocolVersion,
        requestId,
        ...(options.client === undefined ? {} : { client: options.client }),
        ...(options.session === undefined ? {} : { session: options.session }),
        traceContext: span.context,
        // Absent arguments are no arguments; null is not an object, and validation refuses it as any other.
        args: args === undefined ? {} : args,
        meta: {},
        bodyLease,
        time: (step, micros) => {
          report.timings[step] = (report.timings[step] ?? 0) + micros;
        },
        ...(options.progress && { progress: options.progress }),
      };
      const started = performance.now();
      try {
        // The call's span is the active one while it runs: a plugin's own spans are its children.
        report.answer = await context.with(span.context, () => tool.chain.run(call));
      } finally {
        bodyLease.release();
        reportCall(report, performance.now() - started, this.reporting);
        endCallSpan(span, requestId, report.answer);
      }
      return { result: report.answer.result, timings: report.timings };
    });
  }

  /**
   * A caller's request id, if it is one (request-id.ts) and holds no configured secret: it goes into the audit
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
