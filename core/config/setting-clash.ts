import type { TSchema } from 'typebox';
import { StartupError } from '../errors/tool-error.js';
import { isSecret } from './setting-kinds.js';

/** What two declarations of one setting must agree on: its type, its choices, its default, and whether it is secret. */
function shapeOf(schema: TSchema): { text: string; secret: boolean } {
  const s = schema as { type?: unknown; anyOf?: Array<{ const?: unknown }>; default?: unknown };
  const type = s.type ?? (s.anyOf?.every((c) => c.const !== undefined) ? `one of ${s.anyOf.map((c) => JSON.stringify(c.const)).join(', ')}` : 'a value');
  const text = `${isSecret(schema) ? 'a secret ' : ''}${String(type)}${s.default === undefined ? '' : ` (default ${JSON.stringify(isSecret(schema) ? '(secret)' : s.default)})`}`;
  return { text, secret: isSecret(schema) };
}

/**
 * Refuses a setting two owners (the core, plugins) declare differently: with another type, other choices,
 * another default, or one as a secret and the other not. The first declaration used to win silently, so a
 * secret could lose its mask (`mcp-devtools config` showed it) and a type error echo its value. Sharing a key
 * declared the same way (ATLASSIAN_API_TOKEN by Jira, Confluence and Bitbucket) is what plugins are meant to do.
 */
export function refuseClashingDeclaration(key: string, first: { owner: string; schema: TSchema }, second: { owner: string; schema: TSchema }): void {
  if (first.schema === second.schema) return;
  const a = shapeOf(first.schema);
  const b = shapeOf(second.schema);
  if (a.text === b.text) return;
  throw new StartupError(
    `Setting ${key} is declared by ${ownerName(first.owner)} as ${a.text} and by ${ownerName(second.owner)} as ${b.text}. Plugins that share a setting must declare it alike: rename one of them, or declare it the same way.`,
  );
}

const ownerName = (owner: string): string => (owner === 'core' ? 'the core' : `plugin "${owner}"`);
