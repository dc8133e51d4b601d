import type { Static, TObject, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { StartupError } from '../errors/tool-error.js';
import { didYouMean } from '../text/nearest-names.js';
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
  /**
   * @param byOwner values of settings several plugins declare, resolved through each owner's own
   *   `~/.mcp/configs.json` sections (Jira's token from the "jira" section, Bitbucket's from "bitbucket").
   */
  constructor(
    private readonly values: ReadonlyMap<string, ResolvedSetting>,
    private readonly byOwner: ReadonlyMap<string, ReadonlyMap<string, ResolvedSetting>> = new Map(),
  ) {}

  /** The settings as one plugin sees them: shared keys resolved through that plugin's own sections. */
  forOwner(owner: string): Settings {
    const own = this.byOwner.get(owner);
    return own === undefined ? this : new Settings(new Map([...this.values, ...own]));
  }

  /**
   * The values of every setting `schema` declares, typed by it: `settings.of(GithubSettings).GITHUB_TOKEN` is a
   * string. A key no loaded plugin declares, or a value that does not satisfy `schema` (another plugin declared
   * the key with another type), throws naming the key.
   */
  of<S extends TObject>(schema: S): Static<S> {
    const values: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties)) {
      const value = this.get(key);
      if (!compiled(property).Check(value))
        throw new Error(`setting ${key} does not match the schema it is read with (another plugin declares it with another type)`);
      values[key] = value;
    }
    return values as Static<S>;
  }

  /** One setting by a name computed at run time (`${prefix}_BASE_URL`); prefer `of(Schema)`, which types it. */
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
    const all = [...this.entries(), ...[...this.byOwner.values()].flatMap((own) => [...own.values()])];
    const secrets = all.filter((s) => s.secret && typeof s.value === 'string' && s.value !== '').map((s) => s.value as string);
    return [...new Set([...secrets, ...all.flatMap((s) => urlPasswords(s.value))])];
  }

  /** A copy with some values replaced (tests and the `call` command). */
  with(overrides: Record<string, unknown>): Settings {
    const apply = (values: ReadonlyMap<string, ResolvedSetting>): Map<string, ResolvedSetting> => {
      const next = new Map(values);
      for (const [key, value] of Object.entries(overrides)) {
        const found = next.get(key);
        if (found) next.set(key, { ...found, value, source: 'override' });
      }
      return next;
    };
    return new Settings(apply(this.values), new Map([...this.byOwner].map(([owner, own]) => [owner, apply(own)])));
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
  const declared = new Map<string, { schema: TSchema; owner: string; sections: string[]; owners: SettingOwner[] }>();
  for (const owner of owners) {
    for (const [key, schema] of Object.entries(owner.schema.properties)) {
      const seen = declared.get(key);
      if (seen) {
        seen.sections.push(...owner.sections);
        seen.owners.push(owner);
      } else declared.set(key, { schema, owner: owner.name, sections: [...owner.sections], owners: [owner] });
    }
  }
  for (const [key, where] of explicitKeys) {
    if (!declared.has(key)) {
      throw new StartupError(`Unknown setting "${key}" in ${where}.${didYouMean(key, declared.keys())} Run \`mcp-devtools config\` to list the settings.`);
    }
  }
  const warned = new Set<string>();
  const warnOnce: Warn = (message, details) => {
    if (warned.has(message)) return;
    warned.add(message);
    warn(message, details);
  };
  const values = new Map<string, ResolvedSetting>();
  const byOwner = new Map<string, Map<string, ResolvedSetting>>();
  for (const [key, { schema, owner, sections, owners: sharers }] of declared) {
    values.set(key, resolveOne(key, schema, owner, sections, layers, warnOnce));
    // A key several plugins declare: each also gets it through its own sections only, as separate servers would.
    if (sharers.length < 2) continue;
    for (const sharer of sharers) {
      const own = byOwner.get(sharer.name) ?? new Map<string, ResolvedSetting>();
      own.set(key, resolveOne(key, schema, sharer.name, sharer.sections, layers, warnOnce));
      byOwner.set(sharer.name, own);
    }
  }
  return new Settings(values, byOwner);
}

/**
 * One validator per schema object: compiling is the costly part (code generation), and `of(Schema)` checks the
 * same declarations that start-up resolved, plugin after plugin; compiling them again made start-up slower.
 */
const validators = new WeakMap<TSchema, ReturnType<typeof Compile>>();
function compiled(schema: TSchema): ReturnType<typeof Compile> {
  let validator = validators.get(schema);
  if (validator === undefined) validators.set(schema, (validator = Compile(schema)));
  return validator;
}

function resolveOne(key: string, schema: TSchema, owner: string, sections: readonly string[], layers: readonly SettingsLayer[], warn: Warn): ResolvedSetting {
  const secret = isSecret(schema);
  const fallback = (schema as { default?: unknown }).default;
  for (const layer of layers) {
    const found = layer.lookup(key, sections);
    if (found === undefined) continue;
    const value = coerceSetting(schema, found.value);
    const check = compiled(schema);
    if (check.Check(value)) return { key, value, source: found.source, owner, secret };
    const reason = problemOf(schema, check.Errors(value)[0]?.message);
    const shown = secret ? '(secret)' : JSON.stringify(found.value);
    if (isLenient(schema)) {
      warn(`Setting ${key}=${shown} from ${found.source} ${reason}; using the default ${JSON.stringify(fallback)}.`);
      return { key, value: fallback, source: 'default', owner, secret };
    }
    throw new StartupError(`Setting ${key}=${shown} from ${found.source} ${reason}.`);
  }
  return { key, value: fallback, source: 'default', owner, secret };
}

/** What is wrong with a value: for a choice among fixed values (LOG_LEVEL, MCP_TRANSPORT), the values allowed. */
function problemOf(schema: TSchema, message: string | undefined): string {
  const choices = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf?.map((s) => s.const);
  if (choices !== undefined && choices.length > 0 && choices.every((c) => c !== undefined)) {
    return `is not one of the allowed values: ${choices.map((c) => String(c)).join(', ')}`;
  }
  return message ?? 'is invalid';
}
