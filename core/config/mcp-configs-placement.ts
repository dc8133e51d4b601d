import { didYouMean } from '../text/nearest-names.js';
import type { SettingOwner } from './settings.js';
import type { McpConfigs } from './sources.js';

/** This server's own section of `~/.mcp/configs.json`: every setting is read from it, after a plugin's own. */
export const OWN_SECTION = 'mcp-devtools';

/**
 * Settings in `~/.mcp/configs.json` that would be silently ignored where they are: a key in a section this
 * server reads that belongs to another section (MCP_READ_ONLY under "github", GITHUB_TOKEN under "jira"),
 * and a key in this server's own section that no loaded plugin declares. Sections of other MCP servers, and
 * keys a plugin's section shares with its reference server, are none of our business and pass unremarked.
 */
export function misplacedSettings(doc: McpConfigs, owners: readonly SettingOwner[]): string[] {
  const readFrom = new Map<string, Set<string>>();
  for (const owner of owners) {
    for (const key of Object.keys(owner.schema.properties)) {
      const sections = readFrom.get(key) ?? new Set<string>();
      for (const section of owner.sections) sections.add(section);
      readFrom.set(key, sections);
    }
  }
  const ours = new Set(owners.flatMap((o) => o.sections));
  const warnings: string[] = [];
  for (const [section, body] of Object.entries(doc)) {
    if (!ours.has(section) || body === null || typeof body !== 'object') continue;
    for (const key of Object.keys(body.environments ?? {})) {
      const sections = readFrom.get(key);
      if (sections === undefined) {
        if (section === OWN_SECTION) {
          warnings.push(
            `~/.mcp/configs.json: "${key}" in the "${section}" section is not a setting of any loaded plugin, so it is ignored.${didYouMean(key, readFrom.keys())}`,
          );
        }
        continue;
      }
      if (sections.has(section)) continue;
      const where = [...sections].map((s) => `"${s}"`).join(' or ');
      warnings.push(`~/.mcp/configs.json: "${key}" in the "${section}" section is ignored: it is read from the ${where} section. Move it there.`);
    }
  }
  return warnings;
}
