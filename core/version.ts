/** The package version, shown as serverInfo.version (a test keeps it equal to package.json). */
export const VERSION = '0.3.0';
export const SERVER_NAME = 'mcp-devtools';
