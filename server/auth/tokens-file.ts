import Type from 'typebox';
import type { Principal } from '../../core/identity/principal.js';
import { InvalidDocumentError, readYamlDocument, type DocumentProblem } from '../../core/schema/yaml-document.js';

const TokensFileSchema = Type.Object(
  {
    tokens: Type.Array(
      Type.Object(
        {
          sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'SHA-256 of the token (mcp-devtools auth hash-token).' }),
          subject: Type.String({ minLength: 1 }),
          groups: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
          description: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * Reads a tokens file (YAML or JSON): token hashes to principals. The file never holds a token, only its
 * SHA-256, so reading it does not give anyone access. Mistakes are reported with their line.
 */
export function readTokensFile(text: string, label: string): Map<string, Principal> {
  const { value, lineOf } = readYamlDocument(text, TokensFileSchema, label);
  const principals = new Map<string, Principal>();
  const problems: DocumentProblem[] = [];
  value.tokens.forEach((entry, i) => {
    const hash = entry.sha256.toLowerCase();
    if (principals.has(hash))
      problems.push({ line: lineOf(['tokens', i, 'sha256']), message: `tokens[${i}].sha256: the same hash is listed twice; one token maps to one principal.` });
    principals.set(hash, Object.freeze({ subject: entry.subject, groups: Object.freeze([...(entry.groups ?? [])]), via: 'tokens' }));
  });
  if (problems.length > 0) throw new InvalidDocumentError(label, problems);
  return principals;
}
