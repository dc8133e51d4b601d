import Type, { type Static } from 'typebox';
import { Slug } from './repo-args.js';

/** bb_upload's arguments, which the files' checks (upload-files.ts) read too. */

export const UploadArgs = Type.Object(
  {
    workspace: Slug('Workspace'),
    repoSlug: Slug('Repository'),
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
