import Type from 'typebox';

/** The names /metrics, /healthz, the console and the plugins' routes answer to besides the server's own. Registered in server-settings.ts. */
export const HostSettings = Type.Object({
  MCP_HTTP_ALLOWED_HOSTS: Type.String({
    default: '',
    description:
      'Comma-separated host names /metrics, /healthz, /console and the plugins\' routes (/admin/approvals, /plugins/...) answer to besides IP addresses, localhost, this machine\'s name and the hosts of MCP_PUBLIC_URL and MCP_HTTP_ALLOWED_ORIGINS (a name scrapers use, such as a service name). "*": any.',
  }),
});
