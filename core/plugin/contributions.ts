import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Command } from 'commander';
import type { Settings } from '../config/settings.js';
import type { Principal } from '../identity/principal.js';
import type { Logger } from '../logging/logger.js';
import type { Clock, KeyValueStore } from '../store/key-value-store.js';
import { html, type Html } from '../text/html.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * What a plugin adds around the kernel, declared in `@Plugin({ contributes })`: HTTP routes, CLI commands and
 * console pages. A declaration is a few strings and a loader: the server reads it without loading anything, and
 * imports an implementation (`load: () => import('./x.js').then((m) => m.thing)`) only when it mounts it, so a
 * server started over stdio loads no route, command or page.
 */
export interface Contributions {
  /** HTTP routes, served beside /mcp by the Streamable HTTP transport. */
  routes?: readonly RouteContribution[];
  /** CLI verbs: `mcp-devtools <verb> ...`. */
  commands?: readonly CommandContribution[];
  /** Pages of the console (/console, MCP_CONSOLE=true). */
  console?: ConsoleContribution;
}

/** The running kernel as a contribution sees it. */
export interface KernelView {
  readonly settings: Settings;
  /** The names of the plugins it runs. */
  readonly plugins: readonly string[];
  /** A service the kernel or a plugin provides (`TOKENS`, or a plugin's own token given to `provide()`). */
  resolve<T>(token: string): T;
  /** Every tool loaded, served or not. */
  definitions(): ToolDefinition[];
  /** The tools served (the selection, MCP_READ_ONLY and the exclusions applied). */
  servedDefinitions(): ToolDefinition[];
  /** What keeps a loaded tool from being served (`MCP_READ_ONLY=true hides it`), or undefined when it is served. */
  hiddenBy(tool: string): string | undefined;
}

/** What a route or a console module is made with, once the kernel runs. */
export interface ContributionContext {
  kernel: KernelView;
  /** A child of the server's logger, named after the plugin. */
  logger: Logger;
}

/**
 * An HTTP route: every request whose path is its prefix or under it. The server answers before the route is
 * called: the Host check (DNS rebinding), the bearer token (a person the server's authenticator names, or
 * MCP_ADMIN_TOKEN where `adminToken` lets it in; MCP_METRICS_TOKEN never), and the request counter.
 */
export interface RouteContribution {
  /** Where it is mounted: `/plugins/<plugin name>` unless given (such as `/admin/approvals`). */
  prefix?: string;
  /** Let MCP_ADMIN_TOKEN in too, as the caller `{ kind: 'admin' }` (a bot, a dashboard): the route says what it may do. */
  adminToken?: boolean;
  /**
   * `'none'`: a sharp tool. The server admits every request under the prefix without a bearer token (still behind
   * the Host check and the request counter), as the caller `{ kind: 'anonymous' }`, and says so in its start-up
   * log. For what a browser reaches with no credential at all (an OAuth redirect back from a vendor): the route
   * must decide on nothing but what the request proves. Default `'bearer'`.
   */
  auth?: 'bearer' | 'none';
  /** Who may call it and with what, said in every refusal the server answers for it ("approvals are read with ..."). */
  credentials: string;
  load(): Promise<RouteFactory>;
}

export type RouteFactory = (context: ContributionContext) => RouteHandler | Promise<RouteHandler>;

/**
 * Who sent a request that reached a route: a person the server authenticated, the holder of MCP_ADMIN_TOKEN, or,
 * on a route declared `auth: 'none'` only, anyone (no credential was read).
 */
export type RouteCaller = { kind: 'person'; principal: Principal } | { kind: 'admin' } | { kind: 'anonymous' };

export interface RouteRequest {
  readonly raw: IncomingMessage;
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  readonly caller: RouteCaller;
  /** The body as JSON, read up to `maxBytes`: the value, or what is wrong with it in a sentence. */
  readJson(maxBytes: number): Promise<{ ok: true; value: unknown } | { ok: false; message: string }>;
}

/** Answers one request under the route's prefix (a 404 of its own for a path it does not know). */
export type RouteHandler = (request: RouteRequest, response: ServerResponse) => Promise<void>;

/**
 * A CLI verb. The CLI lists it in `mcp-devtools --help` from this declaration, and loads it only when the verb is
 * run: the registrar then adds its subcommands, options and actions to a commander `Command` named after the
 * verb (commander is the CLI's library, so a contributed command parses, helps and fails as the built-in ones do).
 */
export interface CommandContribution {
  /** `mcp-devtools <verb>`; the plugin's name unless given. */
  verb?: string;
  /** Its line in `mcp-devtools --help`. */
  description: string;
  load(): Promise<CommandRegistrar>;
}

export type CommandRegistrar = (command: Command, cli: CommandKit) => void;

/** `--config PATH` and `--set KEY=VALUE`, as `CommandKit.withConfigOptions` adds them. */
export interface ConfigOptions {
  config?: string;
  set?: string[];
}

/** What the CLI's frame gives a contributed command: the options and the configuration every command shares. */
export interface CommandKit {
  /** Adds `--config PATH` and `--set KEY=VALUE` (ConfigOptions). */
  withConfigOptions(command: Command): Command;
  /** Adds `--verbose`: `startKernel` then writes the server's log lines on stderr. */
  withVerboseOption(command: Command): Command;
  /** The settings as a server started with these options would have them; `overrides` above every source. */
  settings(options: ConfigOptions, overrides?: Record<string, string>): Promise<Settings>;
  /** The shared store MCP_STORE_URL names, in MCP_STORE_NAMESPACE, as the server opens it. */
  openStore(settings: Settings): Promise<KeyValueStore>;
  /** A kernel booted as the server boots it (no transport); close it when done. */
  startKernel(options: ConfigOptions & { verbose?: boolean }, overrides?: Record<string, string>): Promise<{ kernel: KernelView; close(): Promise<void> }>;
}

/**
 * Pages of the console. The console's frame serves them under /console: it signs people in (MCP_AUTH_MODE tokens or
 * oidc), keeps their sessions, refuses a POST without the session's CSRF token or from another origin, sends every
 * page under its content security policy (the console's own stylesheet and script, nothing inline), and draws
 * the layout: the navigation of every contributed page, who is signed in, a sign-out button.
 */
export interface ConsoleContribution {
  /** In the order of the navigation. */
  pages: readonly ConsolePageSpec[];
  load(): Promise<ConsoleFactory>;
}

export interface ConsolePageSpec {
  /** `activity`: the page answers /console/activity and every path below it. */
  path: string;
  /** Its link in the navigation; without one the page is reached by links only. */
  label?: string;
  /** Also the console's first page, at /console itself (one page of a server may be). */
  home?: boolean;
}

export interface ConsoleContext extends ContributionContext {
  clock: Clock;
  /** Where browsers reach the console (MCP_CONSOLE_PUBLIC_URL, or the address the server listens on when a browser can use it). */
  url: string | undefined;
}

export type ConsoleFactory = (context: ConsoleContext) => ConsolePages | Promise<ConsolePages>;

export interface ConsolePages {
  /** The answer to a signed-in person's request under one of the pages; undefined: the frame's "not found". */
  answer(request: ConsolePageRequest): Promise<ConsoleAnswer | undefined>;
  /**
   * What a request from someone not signed in gets instead of the sign-in redirect, for a path that must not be
   * replayed after signing in (its query holds a one-time handle): a sentence, and the frame keeps no "next" link.
   * Undefined: the frame's usual sign-in redirect.
   */
  signedOut?(request: { method: string; path: string }): SignedOutAnswer | undefined;
  /** The role a person has in these pages (`approver`), shown beside their name; someone with a role may always sign in. */
  roleOf?(person: Principal): string | undefined;
}

/** Who is signed in: their principal, their role in the console, and the CSRF token every POST form of theirs carries. */
export interface ConsoleViewer extends Principal {
  role: string;
  csrf: string;
}

export interface ConsolePageRequest {
  method: string;
  /** The path as sent (`/console/activity`), without the query. */
  path: string;
  query: URLSearchParams;
  /** A POST's form fields, once the frame has checked its CSRF token and origin. */
  form?: URLSearchParams;
  viewer: ConsoleViewer;
}

/** A page for someone not signed in: a title and a sentence, with the way to sign in. */
export interface SignedOutAnswer {
  status: number;
  title: string;
  text: string;
}

export interface Banner {
  kind: 'notice' | 'error';
  text: string;
}

/** A page, drawn in the console's layout; a part of one, for the console's script (`data-live`); or a 303 to a console path. */
export type ConsoleAnswer = { status?: number; title: string; body: Html; banner?: Banner } | { status?: number; fragment: Html } | { redirect: string };

/** The hidden field every POST form of a console page carries (the viewer's `csrf`): the frame refuses a POST without it. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}
