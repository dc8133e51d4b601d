import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { ToolError } from '../../core/errors/tool-error.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import { TAIL_BUDGET_CHARS } from '../../core/vendor/log-result.js';
import { artifactSentence, saveForCaller } from '../../core/vendor/saved-artifact.js';

/** What the contents API answers for one path: a file, a symlink or a submodule (a directory is a list of these). */
export interface ContentEntry {
  type?: string;
  name?: string;
  path?: string;
  size?: number;
  sha?: string;
  encoding?: string;
  content?: string;
  target?: string;
  submodule_git_url?: string;
}

/** A file's bytes and where they come from, for the text of github_get_file. */
export interface FileRead {
  /** `README.md of octo-org/octo-repo at main`. */
  where: string;
  entry: ContentEntry;
  bytes: Buffer;
}

/** Extensions whose type the artifact names, so a client can open it; anything else is octet-stream. */
const BINARY_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  jar: 'application/java-archive',
  wasm: 'application/wasm',
};

/** A file's bytes from the contents API: base64 with a line break every 60 characters, or none above 1 MB. */
export function contentBytes(entry: ContentEntry): Buffer | undefined {
  if (entry.encoding === 'base64' && typeof entry.content === 'string') return Buffer.from(entry.content.replace(/\s+/g, ''), 'base64');
  return undefined;
}

/** The text of a directory listing: one entry a line, directories with a trailing `/`. */
export function listingText(where: string, entries: ContentEntry[]): string {
  const lines = entries.map((e) => {
    const name = e.name ?? e.path ?? '?';
    if (e.type === 'dir') return `dir        ${name}/`;
    if (e.type === 'file') return `file       ${name} (${e.size ?? 0} bytes)`;
    return `${(e.type ?? 'entry').padEnd(10)} ${name}`;
  });
  return [`Directory ${where}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}.`, ...lines].join('\n');
}

/** What a symlink or submodule is, since neither has content to show. */
export function pointerText(where: string, entry: ContentEntry): string {
  if (entry.type === 'symlink') return `${where} is a symlink to ${JSON.stringify(entry.target ?? '')}: read that path for its content.`;
  if (entry.type === 'submodule')
    return `${where} is a submodule (${entry.submodule_git_url ?? 'no URL'} at ${entry.sha ?? 'unknown commit'}): read it in its own repository.`;
  throw new ToolError(
    'upstream_invalid_body',
    `GitHub answered with a ${JSON.stringify(entry.type)} entry for ${where}, which is not a file, directory, symlink or submodule.`,
  );
}

/**
 * A file as text when it is UTF-8 text that fits; otherwise saved as an artifact and named, with the first lines
 * of a long text file shown. A file is binary when it holds a NUL byte or is not valid UTF-8.
 */
export async function fileText(ctx: ToolContext, artifacts: ArtifactStore, file: FileRead): Promise<string> {
  const { where, entry, bytes } = file;
  const facts = `${bytes.length} bytes${entry.sha ? `, sha ${entry.sha.slice(0, 12)}` : ''}`;
  const text = utf8Text(bytes);
  if (text === undefined) {
    const mimeType = BINARY_TYPES[(entry.name ?? '').split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
    const saved = await saveForCaller(ctx, artifacts, mimeType, bytes, 'file');
    const kept = saved === undefined ? 'It could not be saved as an artifact; try again later.' : artifactSentence(saved, 'file', mimeType);
    return `File ${where} is binary (${facts}), so it is not shown.\n${kept}`;
  }
  if (text.length <= TAIL_BUDGET_CHARS) return `File ${where} (${facts}):\n---\n${text}`;
  const cut = Math.max(text.lastIndexOf('\n', TAIL_BUDGET_CHARS), 0) || TAIL_BUDGET_CHARS;
  const shown = text.slice(0, cut);
  const saved = await saveForCaller(ctx, artifacts, 'text/plain', bytes, 'file');
  const kept =
    saved === undefined ? 'The whole file could not be saved as an artifact; try again later for the rest.' : artifactSentence(saved, 'file', 'text/plain');
  return `File ${where} (${facts}): the first ${shown.split('\n').length} of ${text.split('\n').length} lines are shown.\n${kept}\n---\n${shown}`;
}

function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
