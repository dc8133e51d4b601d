/**
 * `mcp-devtools/plugin`: everything a third-party plugin needs, and nothing it should not depend on.
 *
 * Import every decorator, token and helper from here, never from tsyringe or from this package's internals:
 * the decorators then record metadata the running server reads, `inject` is the server's own tsyringe, and a
 * ToolError thrown by the plugin keeps its code even when the plugin was built against another copy of this
 * package. A vendor plugin that declares its tools gets jq, TOON/JSON rendering, truncation, structured output
 * with artifact spill, the HTTP cache (`cache: true`) and the enterprise policy (`route`) without more code.
 */
// The decorators write through the Reflect metadata API; the polyfill is idempotent and shared by every copy.
import 'reflect-metadata';

// Declaring plugins and tools: a tool as one value (`defineTool`, listed in `@Plugin({ tools })`), or a method
// decorated with `@Tool`.
export { defineTool, type DefinedHandler, type DefinedTool } from '../plugin/define-tool.js';
export { READ, WRITE } from '../plugin/annotation-presets.js';
export { Plugin, Tool, type PluginDecorator } from '../plugin/decorators.js';
export type {
  BootContext,
  DevtoolsPlugin,
  FurtherRoute,
  FurtherRoutes,
  GraphqlLimits,
  GraphqlSpec,
  GraphqlToolSpec,
  PluginSpec,
  RoutedToolSpec,
  ServiceLookup,
  ToolAnnotations,
  ToolDescriptor,
  ToolSpec,
  ToolSpecBase,
} from '../plugin/contract.js';
// The ci plugin's report of one run (`TOKENS.FailureReporter`, looked up through `TOKENS.Services`).
export type { FailureReporter, RunReport, WaitedRun } from '../vendor/failure-reporter.js';

// What a plugin adds to the server: HTTP routes, CLI commands, console pages (declared in `@Plugin({ contributes })`).
export type {
  Banner,
  CommandContribution,
  CommandKit,
  CommandRegistrar,
  ConfigOptions,
  ConsoleAnswer,
  ConsoleContext,
  ConsoleContribution,
  ConsoleFactory,
  ConsolePageRequest,
  ConsolePages,
  ConsolePageSpec,
  ConsoleViewer,
  ContributionContext,
  Contributions,
  KernelView,
  RouteCaller,
  RouteContribution,
  RouteFactory,
  RouteHandler,
  RouteRequest,
  SignedOutAnswer,
} from '../plugin/contributions.js';
export { csrfField } from '../plugin/contributions.js';
export type { Command } from 'commander';
export { escapeHtml, html, Html } from '../text/html.js';
export { FROM_UPSTREAM, type GraphqlRouting, type RestRouting } from '../plugin/tool-spec.js';
export type { ToolHandler } from '../plugin/decorators.js';
export { inject } from 'tsyringe';
export { TOKENS } from '../tokens.js';

// Schemas: TypeBox, the rendering arguments and the structured-output envelopes.
export { Type } from 'typebox';
export type { Static, TObject, TSchema } from 'typebox';
export { JqArg, OutputFormatArg, renderingArgs } from '../schema/common-args.js';
export { CursorEnvelope, EnvelopeData, Incomplete, PagedEnvelope, ReadEnvelope } from '../schema/envelopes.js';

// What a tool handler sees and returns, and the services it may inject.
export type { AnyToolContext, EnvelopeMeta, ProgressReporter, ToolContext, ToolOutput } from '../plugin/tool-context.js';
export type { AskToConfirm, AskToOpen, CallSession, ClientInfo, ConfirmByRetry } from '../plugin/call.js';
export type { StageName } from '../plugin/stages.js';
export {
  PROVENANCE_META_KEY,
  resourceKey,
  type Confidentiality,
  type Integrity,
  type Provenance,
  type ProvenanceLabel,
  type ProvenanceSpec,
} from '../plugin/provenance.js';
export type { Principal } from '../identity/principal.js';
export type { Settings } from '../config/settings.js';
export type { Logger } from '../logging/logger.js';
export type { Clock, KeyValueStore } from '../store/key-value-store.js';
export type { ArtifactChunk, ArtifactStore, SavedArtifact } from '../artifacts/artifact-store.js';
export type { CacheLookupResult, Metrics, RateLimitWaitReason } from '../metrics/metrics.js';
export { lenient, secret } from '../config/setting-kinds.js';

// Calling the vendor's API.
export { UpstreamClient, type SendOptions, type UpstreamClientOptions } from '../http/upstream-client.js';
export type { BodyExpectation } from '../http/parse-body.js';
export {
  isGraphqlRoute,
  type GraphqlFacts,
  type GraphqlOperation,
  type GraphqlOperationType,
  type GraphqlRoute,
  type HttpMethod,
  type ObserveRequest,
  type PreparedRequest,
  type RateLimitedSite,
  type RateLimits,
  type RequestEnd,
  type RequestObservation,
  type Route,
  type UpstreamBinding,
  type UpstreamIdentity,
  type UpstreamLinking,
  type UpstreamRequest,
  type UpstreamResponse,
  type CallActing,
} from '../plugin/upstream-types.js';
export { credentialModeFrom, credentialModeSettings, identityFrom, identitySettings, transportLimitsFrom } from '../http/vendor-settings.js';
export { dataOf } from '../http/graphql-answer.js';
export type { CredentialMode } from '../identity/credential-mode.js';
export type { LinkedCredential } from '../identity/linked-accounts.js';
export type { ActingIdentity, LinkVendor, UserIdentity, ServiceIdentity } from '../identity/acting-identity.js';
export { findLink, nextCursorFromLink, nextPageFromLink, parseLinkHeader, positivePage, type LinkValue } from '../http/link-header.js';

// Errors a tool can end with (each code is in the catalogue, docs/errors.md).
export { ToolError, isToolError, type ToolErrorDetails } from '../errors/tool-error.js';
export type { ErrorCode } from '../errors/catalogue.js';

/** The version of mcp-devtools this API comes from (for a User-Agent). */
export { VERSION } from '../version.js';
