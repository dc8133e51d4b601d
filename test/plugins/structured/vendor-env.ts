import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../../server/bootstrap/resolve-config.js';
import { VENDORS } from '../../../server/bootstrap/builtin-plugins.js';
import { serverSettingsSchemas } from '../../../server/cli/server-settings.js';

/**
 * Settings that point every built-in vendor plugin at a loopback mock, found from the settings they declare:
 * URL settings get the mock's URL, empty credentials and names get placeholders. Vendor plugins written on
 * other branches are covered as soon as they are merged, without naming their settings here.
 */
export async function vendorSettingsAgainst(configDir: string, mockUrl: string): Promise<Record<string, string>> {
  const { settings } = await resolveConfig({
    cwd: configDir,
    env: {},
    home: mkdtempSync(join(tmpdir(), 'mcp-devtools-home-')),
    extraSettings: serverSettingsSchemas,
  });
  const env: Record<string, string> = {};
  for (const s of settings.entries()) {
    if (!(s.owner in VENDORS)) continue;
    if (/URL$/.test(s.key)) env[s.key] = mockUrl;
    else if (s.value === '') env[s.key] = s.secret ? 'conformance-credential' : 'conformance';
  }
  return env;
}
