import type { TObject, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { StartupError } from '../errors/tool-error.js';
import { coerceSetting } from './coerce.js';
import { isLenient, isSecret } from './setting-kinds.js';
import type { SettingsLayer } from './sources.js';
import { urlPasswords } from './url-credentials.js';

/** Someone who declares settings: the core, or a plugin (with its `~/.mcp/configs.json` sections). */
export interface SettingOwner {
  name: string;
  schema: TObject;
  sections: readonly string[];
}

export interface ResolvedSetting {
  key: string;
  value: unknown;
  source: string;
  owner: string;
  secret: boolean;
}

/** The effective configuration: every declared setting's value and where it came from. */
export class Settings {
  constructor(private readonly values: ReadonlyMap<string, ResolvedSetting>) {}

  get<T = unknown>(key: string): T {
    const found = this.values.get(key);
    if (found === undefined) throw new Error(`setting ${key} is not declared by any loaded plugin`);
    return found.value as T;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  entries(): ResolvedSetting[] {
    return [...this.values.values()];
  }

  /** Every non-empty secret value, and every password inside a URL-valued setting, for log scrubbing. */
  secretValues(): string[] {
    const secrets = this.entries()
      .filter((s) => s.secret && typeof s.value === 'string' && s.value !== '')
      .map((s) => s.value as string);
    return [...secrets, ...this.entries().flatMap((s) => urlPasswords(s.value))];
  }

  /** A copy with some values replaced (tests and the `call` command). */
  with(overrides: Record<string, unknown>): Settings {
    const next = new Map(this.values);
    for (const [key, value] of Object.entries(overrides)) {
      const found = next.get(key);
      if (found) next.set(key, { ...found, value, source: 'override' });
    }
    return new Settings(next);
  }
}

export type Warn = (message: string, details?: Record<string, unknown>) => void;

/**
 * Resolves every declared setting through the cascade (layers highest first, then the schema default),
 * converts strings to the declared type and validates it. Unknown keys given explicitly (flags, config file)
 * and bad values fail start-up naming the key; `lenient` settings fall back to their default with a warning.
 */
export function resolveSettings(
  owners: readonly SettingOwner[],
  layers: readonly SettingsLayer[],
  explicitKeys: ReadonlyMap<string, string>,
  warn: Warn,
): Settings {
  const declared = new Map<string, { schema: TSchema; owner: string; sections: string[] }>();
  for (const owner of owners) {
    for (const [key, schema] of Object.entries(owner.schema.properties)) {
      const seen = declared.get(key);
      if (seen) seen.sections.push(...owner.sections);
      else declared.set(key, { schema, owner: owner.name, sections: [...owner.sections] });
    }
  }
  for (const [key, where] of explicitKeys) {
    if (!declared.has(key)) {
      throw new StartupError(`Unknown setting "${key}" in ${where}. Run \`mcp-devtools config\` to list the settings.`);
    }
  }
  const values = new Map<string, ResolvedSetting>();
  for (const [key, { schema, owner, sections }] of declared) {
    values.set(key, resolveOne(key, schema, owner, sections, layers, warn));
  }
  return new Settings(values);
}

function resolveOne(
  key: string,
  schema: TSchema,
  owner: string,
  sections: readonly string[],
  layers: readonly SettingsLayer[],
  warn: Warn,
): ResolvedSetting {
  const secret = isSecret(schema);
  const fallback = (schema as { default?: unknown }).default;
  for (const layer of layers) {
    const found = layer.lookup(key, sections);
    if (found === undefined) continue;
    const value = coerceSetting(schema, found.value);
    const check = Compile(schema);
    if (check.Check(value)) return { key, value, source: found.source, owner, secret };
    const reason = check.Errors(value)[0]?.message ?? 'is invalid';
    const shown = secret ? '(secret)' : JSON.stringify(found.value);
    if (isLenient(schema)) {
      warn(`Setting ${key}=${shown} from ${found.source} ${reason}; using the default ${JSON.stringify(fallback)}.`);
      return { key, value: fallback, source: 'default', owner, secret };
    }
    throw new StartupError(`Setting ${key}=${shown} from ${found.source} ${reason}.`);
  }
  return { key, value: fallback, source: 'default', owner, secret };
}
