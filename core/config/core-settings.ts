import Type from 'typebox';
import { STORE_NAMESPACE_PATTERN } from '../store/store-options.js';
import { lenient, secret } from './setting-kinds.js';

/** Settings the kernel and the server read. Plugins declare their own beside these. */
export const CoreSettings = Type.Object({
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('trace'),
      Type.Literal('debug'),
      Type.Literal('info'),
      Type.Literal('warn'),
      Type.Literal('error'),
      Type.Literal('fatal'),
      Type.Literal('silent'),
    ],
    { default: 'info', description: 'pino log level (logs go to stderr).' },
  ),
  MCP_TRANSPORT: Type.Union([Type.Literal('stdio'), Type.Literal('http')], { default: 'stdio', description: 'stdio, or Streamable HTTP at /mcp.' }),
  MCP_HTTP_HOST: Type.String({ default: '127.0.0.1', description: 'Address the HTTP transport binds to.' }),
  MCP_HTTP_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'Port of the HTTP transport (0 picks a free one).' }),
  MCP_HTTP_ALLOWED_ORIGINS: Type.String({ default: '', description: 'Comma-separated extra Origins allowed to call /mcp (loopback origins always are).' }),
  MCP_WORKERS: Type.String({
    default: '1',
    pattern: '^([1-9][0-9]{0,3}|auto|AUTO|Auto)$',
    description:
      'Processes serving the HTTP transport on one port (--workers): a number, or auto for one per core. Above 1 needs a shared MCP_STORE_URL (SQLite or Redis), not memory://.',
  }),
  MCP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 30000, description: 'Timeout of one upstream request.' }),
  MCP_MAX_RESPONSE_BYTES: Type.Integer({ minimum: 1, default: 33554432, description: 'Largest upstream body read; enforced while reading.' }),
  MCP_MAX_INFLIGHT_BODY_BYTES: Type.Integer({
    minimum: 0,
    default: 134217728,
    description:
      'Upstream body bytes all calls in flight may hold at once (0: no bound); further reads wait, so a burst of large responses cannot exhaust memory.',
  }),
  MCP_UPSTREAM_RETRIES: Type.Integer({ minimum: 0, maximum: 10, default: 2, description: 'Retries of idempotent GETs on 502/503/504 and connection resets.' }),
  MCP_RATE_LIMIT_MAX_WAIT_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 3600,
    default: 30,
    description:
      "Longest an upstream request is held for a vendor's rate limit (a reset, a Retry-After): a nearer one is waited out, reads and writes sent again after a 429; a farther one fails at once with when to retry. Shared across workers and replicas through MCP_STORE_URL. 0: never wait.",
  }),
  MCP_RATE_LIMIT_PACE_PERCENT: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: 10,
    description:
      "Below this share of a rate-limit window's budget (x-ratelimit-limit), requests of that credential are spread over the time to the reset instead of spending what is left at once. 0: spread nothing.",
  }),
  MCP_RATE_LIMIT_GOVERNOR: Type.Boolean({
    default: true,
    description:
      'Govern upstream requests by the rate limits vendors report (MCP_RATE_LIMIT_*). false: every request goes out when its tool sends it, and a rate-limit answer reaches the caller at once.',
  }),
  MCP_EGRESS_ALLOW: Type.String({
    default: '',
    description:
      "Comma-separated hosts, host:port pairs and CIDR ranges that may be reached although at loopback, private, link-local or metadata addresses: by URLs an upstream hands out (redirects to another origin, storage URLs; the vendor's own host always may), webhook receivers, the OIDC provider (discovery, keys, token and userinfo endpoints) and the OTLP collector.",
  }),
  MCP_READ_ONLY: Type.Boolean({
    default: false,
    description: 'Serve only tools annotated read-only whose route is a read (a GET, or a GraphQL query), and send no request that is not one (--read-only).',
  }),
  MCP_TOOLSETS: Type.String({
    default: '',
    description:
      'Comma-separated toolsets served (--toolsets github.actions,jira): toolset names, plugin names (all of a plugin\'s toolsets), "default" or "all". Empty, with MCP_TOOLS empty too: the default toolsets of the vendors with credentials (or <VENDOR>_CREDENTIALS=user); "default" serves them for every vendor. artifact_read stays while a served tool can spill.',
  }),
  MCP_TOOLS: Type.String({
    default: '',
    description:
      'Comma-separated tool names served besides MCP_TOOLSETS (--tools jira_get,github_get); with MCP_TOOLSETS empty, only these (and artifact_read while one can spill).',
  }),
  MCP_EXCLUDE_TOOLS: Type.String({
    default: '',
    description: 'Comma-separated tool names never served, whatever else selects them (--exclude-tools github_merge_pull_request).',
  }),
  MCP_DYNAMIC_TOOLSETS: Type.Boolean({
    default: false,
    description:
      'Start with three tools (list_toolsets, get_toolset_tools, enable_toolset) and what MCP_TOOLSETS or MCP_TOOLS name; a caller enables further toolsets as it needs them (--dynamic-toolsets).',
  }),
  MCP_CODE_MODE: Type.Boolean({
    default: false,
    description:
      'Serve search_tools, execute and artifact_read only (--code-mode): a program run by execute reaches every tool the selection would otherwise serve. Turns structured output on.',
  }),
  STREAMING_ARTIFACT_RETENTION_SECONDS: lenient(Type.Integer({ default: 3600, description: 'How long artifacts stay readable; clamped to 300-604800.' })),
  MCP_STORE_URL: Type.String({
    default: 'memory://',
    description:
      'Shared state (HTTP cache, artifacts, approvals): memory:// (one process), sqlite:///absolute/path.db (one host, survives restarts) or redis://[:password@]host:port/db, rediss:// for TLS (replicas). A password in the URL is never shown.',
  }),
  MCP_STORE_NAMESPACE: Type.String({
    default: 'mcp-devtools',
    pattern: STORE_NAMESPACE_PATTERN,
    description: 'Prefix of every store key, so several deployments can share one Redis or SQLite file (letters, digits, . _ -).',
  }),
  MCP_STORE_TIMEOUT_MS: Type.Integer({
    minimum: 10,
    default: 5000,
    description:
      'Longest wait for the store: connecting at start-up and each read or write later (a failing store then degrades the call instead of hanging it).',
  }),
  MCP_SHUTDOWN_GRACE_MS: Type.Integer({
    minimum: 0,
    default: 10000,
    description: 'How long in-flight calls may finish on SIGINT/SIGTERM before they are cancelled.',
  }),
  MCP_ADMIN_TOKEN: secret(
    Type.String({
      default: '',
      description:
        "Bearer token that reads approvals at the admin endpoint (a bot, a dashboard); it never decides, which takes an approver's own token. Until 0.4.0 it also scrapes /metrics while MCP_METRICS_TOKEN is unset. Empty: none.",
    }),
  ),
});
