import Type, { type Static } from 'typebox';
import type { RoutedToolSpec } from '../../core/plugin/contract.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { Slug } from './repo-args.js';

export const UploadArgs = Type.Object(
  {
    workspace: Slug('Workspace'),
    repo: Slug('Repository'),
    files: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 255, description: 'File name in Downloads.' }),
          content: Type.Optional(Type.String({ description: 'The bytes, base64.' })),
          artifactId: Type.Optional(Type.String({ description: 'Or an artifact of yours (a log, a file), instead of content.' })),
          mimeType: Type.Optional(Type.String({ description: "Default: the artifact's, else application/octet-stream." })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10 },
    ),
    replace: Type.Optional(Type.Boolean({ description: 'Overwrite files of the same name (default false: refused).' })),
  },
  { additionalProperties: false },
);

export type UploadArgs = Static<typeof UploadArgs>;

export const UPLOAD: RoutedToolSpec<typeof UploadArgs, typeof ReadEnvelope> = {
  name: 'bb_upload',
  title: 'Upload to Bitbucket Downloads',
  description:
    "Upload files to a repository's Downloads, from base64 content or an artifact id. A name that already exists is refused unless replace is true. Limits: UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_TOTAL_BYTES per call.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: UploadArgs,
  // It reads an artifact another tool saved; it saves none of its own.
  savesArtifacts: false,
  envelope: ReadEnvelope,
  toolset: 'bitbucket.repos',
  // What policy sees: the files' names and whether they may overwrite; the bytes go as multipart/form-data.
  route: (args: UploadArgs) => ({
    method: 'POST',
    path: `/repositories/${args.workspace}/${args.repo}/downloads`,
    body: { files: args.files.map((f) => f.name), replace: args.replace === true },
  }),
  // The names already in Downloads, page by page, read before anything is uploaded.
  further: (args: UploadArgs) => [{ method: 'GET', path: `/repositories/${args.workspace}/${args.repo}/downloads` }],
};
