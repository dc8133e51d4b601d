// The built-in vendors' setting names, listed in server/bootstrap/reserved-settings.ts so that a server reserves
// them (and scrubs their secrets) without loading those plugins: the list must be what the plugins declare.
import { expect } from 'chai';
import { isSecret } from '../../../core/config/setting-kinds.js';
import { readPluginSpec } from '../../../core/plugin/metadata.js';
import { VENDORS } from '../../../server/bootstrap/builtin-plugins.js';
import { BUILTIN_VENDOR_SETTINGS } from '../../../server/bootstrap/reserved-settings.js';

describe('the reserved settings of the built-in vendors', () => {
  it('are every setting each built-in vendor declares, with the plugins that declare it and whether it is a secret', async () => {
    const declared: Record<string, { plugins: string[]; secret: boolean }> = {};
    for (const [name, load] of Object.entries(VENDORS)) {
      const spec = readPluginSpec(await load())!;
      for (const [key, schema] of Object.entries(spec.settings?.properties ?? {})) {
        const entry = (declared[key] ??= { plugins: [], secret: isSecret(schema) });
        entry.plugins.push(name);
      }
    }
    expect(Object.keys(declared)).to.include.members([
      'GITHUB_TOKEN',
      'ATLASSIAN_API_TOKEN',
      'CIRCLECI_TOKEN',
      'JIRA_PERSONAL_TOKEN',
      'BITBUCKET_ACCESS_TOKEN',
    ]);
    expect(JSON.parse(JSON.stringify(BUILTIN_VENDOR_SETTINGS))).to.deep.equal(declared);
  });
});
