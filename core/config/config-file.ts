import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { StartupError } from '../errors/tool-error.js';
import { yamlParser } from '../schema/yaml-document.js';

const ConfigFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    /** Vendor and third-party plugins to load: built-in names, module paths (relative to the file) or packages. */
    plugins: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Built-in cross-cutting plugins to leave out (e.g. "cache"). */
    disable: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Setting values, below flags, environment, .env and ~/.mcp/configs.json in the cascade. */
    settings: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
  },
  { additionalProperties: false },
);

export type ConfigFile = Static<typeof ConfigFileSchema> & { path?: string; dir: string };

// Compiled when a config file is read: a server started without one does not pay for it.
let checker: ReturnType<typeof Compile<typeof ConfigFileSchema>> | undefined;
const DEFAULT_NAMES = ['mcp-devtools.config.json', 'mcp-devtools.config.yaml', 'mcp-devtools.config.yml'];

/** The config file named by `--config`, else `MCP_DEVTOOLS_CONFIG`, else one in the working directory. */
export function findConfigFile(cwd: string, explicit: string | undefined): string | undefined {
  if (explicit !== undefined && explicit !== '') {
    const path = isAbsolute(explicit) ? explicit : resolve(cwd, explicit);
    if (!existsSync(path)) throw new StartupError(`Config file ${path} does not exist (given by --config or MCP_DEVTOOLS_CONFIG).`);
    return path;
  }
  const found = DEFAULT_NAMES.map((n) => join(cwd, n)).filter((p) => existsSync(p));
  if (found.length > 1) {
    // Reading one and ignoring the other would leave half of what someone configured silently unused.
    throw new StartupError(
      `Two config files in ${cwd}: ${found.join(' and ')}. Keep one of them (merge what the other holds into it), or pick one with --config.`,
    );
  }
  return found[0];
}

export function readConfigFile(path: string | undefined, cwd: string): ConfigFile {
  if (path === undefined) return { dir: cwd };
  let doc: unknown;
  const text = readFileSync(path, 'utf8');
  try {
    doc = extname(path) === '.json' ? JSON.parse(text) : yamlParser().parse(text);
  } catch (error) {
    throw new StartupError(`Config file ${path} does not parse: ${(error as Error).message}`);
  }
  doc ??= {};
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new StartupError(`Config file ${path} must hold an object.`);
  const unknown = Object.keys(doc).filter((k) => !(k in ConfigFileSchema.properties));
  if (unknown.length > 0) {
    throw new StartupError(`Config file ${path}: unknown key "${unknown[0]}". Allowed keys: ${Object.keys(ConfigFileSchema.properties).join(', ')}.`);
  }
  checker ??= Compile(ConfigFileSchema);
  if (!checker.Check(doc)) {
    const [first] = checker.Errors(doc);
    throw new StartupError(`Config file ${path}: "${first?.instancePath.slice(1) || '/'}" ${first?.message ?? 'is invalid'}.`);
  }
  return { ...(doc as Static<typeof ConfigFileSchema>), path, dir: dirname(path) };
}
