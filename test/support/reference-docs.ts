import { tmpdir } from 'node:os';
import { sep } from 'node:path';
import type { TObject, TSchema } from 'typebox';
import { CoreSettings } from '../../core/config/core-settings.js';
import { isSecret } from '../../core/config/setting-kinds.js';
import { ERROR_CATALOGUE } from '../../core/errors/catalogue.js';
import { readPluginSpec } from '../../core/plugin/metadata.js';
import { CROSS_CUTTING, VENDORS } from '../../server/bootstrap/builtin-plugins.js';
import { serverSettingsSchemas } from '../../server/cli/server-settings.js';

interface Row {
  key: string;
  owner: string;
  schema: TSchema;
}

/** Every setting the shipped server can read, grouped by who declares it. */
export async function allSettings(): Promise<Row[]> {
  const rows: Row[] = [];
  const add = (owner: string, schema: TObject): void => {
    for (const [key, s] of Object.entries(schema.properties)) if (!rows.some((r) => r.key === key)) rows.push({ key, owner, schema: s });
  };
  add('core', CoreSettings);
  for (const schema of serverSettingsSchemas) add('server', schema);
  for (const [name, load] of [...Object.entries(CROSS_CUTTING), ...Object.entries(VENDORS)]) {
    const spec = readPluginSpec(await load());
    if (spec?.settings) add(name, spec.settings);
  }
  return rows;
}

function typeOf(schema: TSchema): string {
  const s = schema as { type?: string; anyOf?: Array<{ const?: unknown }> };
  if (s.anyOf?.every((a) => a.const !== undefined)) return s.anyOf.map((a) => JSON.stringify(a.const)).join(' \\| ');
  return s.type ?? 'any';
}

/**
 * A default as the docs show it: one under this process's temporary folder (MCP_RAW_RESPONSE_DIR's) is shown
 * under /tmp, its value where TMPDIR is not set, so that the docs do not depend on who generated them (a test
 * run sets TMPDIR to a folder of its own, test/support/run-temp.ts).
 */
function documentedDefault(value: unknown): string {
  const text = String(value);
  const temp = tmpdir();
  return text.startsWith(temp + sep) ? `/tmp${text.slice(temp.length)}` : text;
}

export async function renderSettingsReference(): Promise<string> {
  const lines = ['| Setting | Type | Default | Declared by | Meaning |', '| --- | --- | --- | --- | --- |'];
  for (const { key, owner, schema } of await allSettings()) {
    const s = schema as { default?: unknown; description?: string };
    const shown = s.default === undefined || s.default === '' ? '' : `\`${documentedDefault(s.default)}\``;
    const secret = isSecret(schema) ? ' (secret: masked, redacted from logs)' : '';
    lines.push(`| \`${key}\` | ${typeOf(schema)} | ${shown} | ${owner} | ${(s.description ?? '').replace(/\|/g, '\\|')}${secret} |`);
  }
  return lines.join('\n');
}

export function renderErrorCatalogue(): string {
  const lines = ['| Code | Retryable | Meaning |', '| --- | --- | --- |'];
  for (const [code, { retryable, summary }] of Object.entries(ERROR_CATALOGUE)) lines.push(`| \`${code}\` | ${retryable ? 'yes' : 'no'} | ${summary} |`);
  return lines.join('\n');
}
