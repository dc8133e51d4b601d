import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { StartupError } from '../errors/tool-error.js';

/** One layer of the configuration cascade: where values came from, and the values. */
export interface SettingsLayer {
  /** Shown by `mcp-devtools config` as where a value came from. */
  source: string;
  /** A setting's value and where it came from; `sections` narrows `~/.mcp/configs.json` to a plugin's. */
  lookup(key: string, sections: readonly string[]): Found | undefined;
}

export interface Found {
  value: unknown;
  source: string;
}

export function mapLayer(source: string, values: Record<string, unknown>): SettingsLayer {
  return {
    source,
    lookup: (key) => (Object.prototype.hasOwnProperty.call(values, key) ? { value: values[key], source } : undefined),
  };
}

/** `./.env` of the working directory; read, never loaded into `process.env`. */
export function dotenvLayer(cwd: string): SettingsLayer {
  const file = join(cwd, '.env');
  const values = existsSync(file) ? parseDotenv(readFileSync(file)) : {};
  return mapLayer('.env', values);
}

/** `~/.mcp/configs.json`: sections named after MCP servers, each with the `environments` it gives them. */
export type McpConfigs = Record<string, { environments?: Record<string, unknown> }>;

/** The vendor sections of `~/.mcp/configs.json`: `{"jira": {"environments": {"KEY": "value"}}}`. */
export function mcpConfigsLayer(doc: McpConfigs): SettingsLayer {
  return {
    source: '~/.mcp/configs.json',
    lookup(key, sections) {
      for (const section of sections) {
        const env = doc[section]?.environments;
        if (env && Object.prototype.hasOwnProperty.call(env, key)) {
          return { value: env[key], source: `~/.mcp/configs.json (${section})` };
        }
      }
      return undefined;
    },
  };
}

/** The parsed file, `{}` when there is none. */
export function readMcpConfigs(home = homedir()): McpConfigs {
  const file = join(home, '.mcp', 'configs.json');
  let doc: McpConfigs = {};
  if (existsSync(file)) {
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new StartupError(`${file} is not valid JSON: ${(error as Error).message}. Fix or remove it.`);
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new StartupError(`${file} must hold a JSON object of sections such as {"jira": {"environments": {...}}}.`);
    }
  }
  return doc;
}
