import type { TObject } from 'typebox';

/**
 * Settings schemas of the server-side parts that are not plugins (authentication adds its own here), so the
 * configuration cascade validates them and `mcp-devtools config` lists them.
 */
export const serverSettingsSchemas: TObject[] = [];
