import Type, { type Static, type TObject, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Check } from 'typebox/value';
import { StartupError } from '../errors/tool-error.js';
import { didYouMean } from '../text/nearest-names.js';
import { coerceSetting } from './coerce.js';
import { isLenient, isPerWorker, isSecret } from './setting-kinds.js';
import type { SettingsLayer } from './sources.js';
import { urlPasswords } from '../text/url-credentials.js';
import { refuseClashingDeclaration } from './setting-clash.js';

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
  /** Each `--workers` worker runs with its own value (setting-kinds.ts `perWorker`). */
  perWorker?: true;
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
    private readonly undeclaredSecrets: readonly string[] = [],
  ) {}

  /** The settings as one plugin sees them: shared keys resolved through that plugin's own sections. */
  forOwner(owner: string): Settings {
    const own = this.byOwner.get(owner);
    return own === undefined ? this : new Settings(new Map([...this.values, ...own]), new Map(), this.undeclaredSecrets);
  }

  /**
   * A copy that also scrubs `secrets`: values of secret settings no loaded plugin declares (a built-in vendor's
   * token set in the environment of a server that does not load that vendor), never readable as settings.
   */
  withUndeclaredSecrets(secrets: readonly string[]): Settings {
    return new Settings(this.values, this.byOwner, [...this.undeclaredSecrets, ...secrets]);
  }

  /**
   * The values of every setting `schema` declares, typed by it: `settings.of(GithubSettings).GITHUB_TOKEN` is a
   * string. A key no loaded plugin declares, or a value that does not satisfy `schema` (another plugin declared
   * the key with another type), throws naming the key.
   */
  of<S extends TObject>(schema: S): Static<S> {
    const values: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties)) {
      const found = this.values.get(key);
      if (found === undefined) throw new Error(`setting ${key} is not declared by any loaded plugin`);
      // An optional setting nothing set: absent, as its schema allows (start-up refuses a required one unset).
      if (found.value === undefined && Type.IsOptional(property)) {
        values[key] = undefined;
        continue;
      }
      if (!satisfies(found, property))
        throw new Error(`setting ${key} does not match the schema it is read with (another plugin declares it with another type)`);
      values[key] = found.value;
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
    const undeclared = this.undeclaredSecrets.filter((value) => value !== '');
    return [...new Set([...secrets, ...undeclared, ...all.flatMap((s) => urlPasswords(s.value))])];
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
    return new Settings(apply(this.values), new Map([...this.byOwner].map(([owner, own]) => [owner, apply(own)])), this.undeclaredSecrets);
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
  const declared = new Map<string, { schema: TSchema; owner: string; sections: string[]; owners: SettingOwner[]; required: boolean }>();
  for (const owner of owners) {
    refuseNonObjectSettings(owner);
    const required = new Set(owner.schema.required ?? []);
    for (const [key, schema] of Object.entries(owner.schema.properties)) {
      const seen = declared.get(key);
      if (seen) {
        refuseClashingDeclaration(key, { owner: seen.owner, schema: seen.schema }, { owner: owner.name, schema });
        seen.sections.push(...owner.sections);
        seen.owners.push(owner);
      } else declared.set(key, { schema, owner: owner.name, sections: [...owner.sections], owners: [owner], required: required.has(key) });
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
  for (const [key, { schema, owner, sections, owners: sharers, required }] of declared) {
    const value = resolveOne(key, schema, owner, sections, layers, warnOnce);
    if (value.value === undefined && required) refuseUnset(key, schema, owner, sections);
    values.set(key, value);
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

/** A plugin's `settings` must be a TypeBox object: anything else would fail later as a TypeError naming nothing. */
export function refuseNonObjectSettings(owner: SettingOwner): void {
  const schema = owner.schema as { type?: unknown; properties?: unknown } | null | undefined;
  if (schema?.type === 'object' && schema.properties !== null && typeof schema.properties === 'object') return;
  const prefix = (owner.name.split(/[-_]/)[0] ?? 'acme').toUpperCase();
  const what = typeof schema?.type === 'string' ? `a ${schema.type} schema` : 'not a TypeBox object';
  throw new StartupError(
    `Plugin "${owner.name}": its settings must be a TypeBox object of settings, such as Type.Object({ ${prefix}_TOKEN: secret(Type.String({ default: '' })) }); it is ${what}.`,
  );
}

/** A required setting nothing set and nothing defaults: it would be read as undefined, which its type does not allow. */
function refuseUnset(key: string, schema: TSchema, owner: string, sections: readonly string[]): never {
  const description = (schema as { description?: unknown }).description;
  const about = typeof description === 'string' && description !== '' ? ` (${description})` : '';
  const whose = owner === 'core' || owner === 'server' ? '' : ` of plugin "${owner}"`;
  throw new StartupError(
    `Setting ${key}${whose}${about} is not set and has no default: set it (in the environment, ./.env, the "${sections[0] ?? owner}" section of ~/.mcp/configs.json or the config file), or give it a default or make it Type.Optional in the plugin's settings.`,
  );
}

/**
 * The property schemas each resolved setting's value is known to satisfy. Resolved values never change (`with`
 * makes new ones), so a value is checked against a schema once: start-up reads most settings several times
 * (`of(CoreSettings)` in the kernel, the transport limits in every vendor plugin), which checked them up to
 * thirteen times each and compiled a validator for every one of them, a few milliseconds of every start.
 */
const satisfied = new WeakMap<ResolvedSetting, WeakSet<TSchema>>();
function satisfies(setting: ResolvedSetting, schema: TSchema): boolean {
  let known = satisfied.get(setting);
  if (known?.has(schema) === true) return true;
  if (!matches(schema, setting.value)) return false;
  if (known === undefined) satisfied.set(setting, (known = new WeakSet()));
  known.add(schema);
  return true;
}

/**
 * One validator per schema object, compiled from its third check on. Compiling is code generation, dearer than
 * walking the schema to check one value, and far cheaper for every check after: start-up checks most settings
 * once or twice (resolving them, then `of(Schema)` in the plugin that reads them), calls may read them again.
 */
const COMPILE_AT_CHECK = 3;
const validators = new WeakMap<TSchema, { checks: number; compiled?: ReturnType<typeof Compile> }>();
function matches(schema: TSchema, value: unknown): boolean {
  let entry = validators.get(schema);
  if (entry === undefined) validators.set(schema, (entry = { checks: 0 }));
  if (entry.compiled === undefined && ++entry.checks >= COMPILE_AT_CHECK) entry.compiled = Compile(schema);
  return entry.compiled === undefined ? Check(schema, value) : entry.compiled.Check(value);
}

function resolveOne(key: string, schema: TSchema, owner: string, sections: readonly string[], layers: readonly SettingsLayer[], warn: Warn): ResolvedSetting {
  const secret = isSecret(schema);
  const kind = isPerWorker(schema) ? { secret, perWorker: true as const } : { secret };
  const fallback = (schema as { default?: unknown }).default;
  for (const layer of layers) {
    const found = layer.lookup(key, sections);
    if (found === undefined) continue;
    const value = coerceSetting(schema, found.value);
    if (matches(schema, value)) return { key, value, source: found.source, owner, ...kind };
    const reason = problemOf(schema, Compile(schema).Errors(value)[0]?.message);
    const shown = secret ? '(secret)' : JSON.stringify(found.value);
    if (isLenient(schema)) {
      warn(`Setting ${key}=${shown} from ${found.source} ${reason}; using the default ${JSON.stringify(fallback)}.`);
      return { key, value: fallback, source: 'default', owner, ...kind };
    }
    throw new StartupError(`Setting ${key}=${shown} from ${found.source} ${reason}.`);
  }
  return { key, value: fallback, source: 'default', owner, ...kind };
}

/** What is wrong with a value: for a choice among fixed values (LOG_LEVEL, MCP_TRANSPORT), the values allowed. */
function problemOf(schema: TSchema, message: string | undefined): string {
  const choices = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf?.map((s) => s.const);
  if (choices !== undefined && choices.length > 0 && choices.every((c) => c !== undefined)) {
    return `is not one of the allowed values: ${choices.map((c) => String(c)).join(', ')}`;
  }
  return message ?? 'is invalid';
}
