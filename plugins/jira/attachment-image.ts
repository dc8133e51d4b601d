import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import type { JiraDeps } from './jira-api.js';
import { IMAGE_TYPES, sniffImageType } from './image-type.js';
import { advisedTool } from '../../core/plugin/tool-context.js';

/** Largest image returned inline: an image block travels whole, base64, in one message. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const AttachmentArgs = Type.Object(
  { attachmentId: Type.String({ pattern: '^[0-9]{1,20}$', description: 'Attachment id, e.g. "10001" (fields.attachment[].id of an issue).' }) },
  { additionalProperties: false },
);

export const GET_ATTACHMENT = defineTool({
  name: 'jira_get_attachment',
  title: 'Get a Jira image attachment',
  description: 'An image attached to a Jira issue (PNG, JPEG, GIF or WebP, up to 5 MiB) as an image the model can see.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: AttachmentArgs,
  toolset: 'jira.issues',
  route: (args: Static<typeof AttachmentArgs>) => ({ method: 'GET', path: `/rest/api/3/attachment/content/${args.attachmentId}` }),
  // Its metadata first: a large file or a non-image is refused without downloading it.
  further: (args: Static<typeof AttachmentArgs>) => [{ method: 'GET', path: `/rest/api/3/attachment/${args.attachmentId}` }],
  /**
   * An image attachment: its metadata first (so a large file or a non-image is refused without downloading it),
   * then its bytes. Jira answers the content with a redirect to its media host: followed without Jira's
   * credentials, as GitHub's log redirect is. The bytes decide the type, not the declared one.
   */
  handler: async (ctx, { upstream: jira }: JiraDeps) => {
    const id = ctx.args.attachmentId;
    const metaPath = `/rest/api/3/attachment/${id}`;
    const meta = ((await jira.send(ctx, { method: 'GET', path: metaPath }, { expect: 'json' })).body ?? {}) as AttachmentMeta;
    const jiraGet = await advisedTool(ctx, 'jira_get');
    const described = `Attachment ${id} (${JSON.stringify(meta.filename ?? '')}, ${meta.mimeType ?? 'no type'}, ${meta.size ?? '?'} bytes)`;
    const refuse = (why: string): never => {
      throw new ToolError(
        'unsupported_content',
        `${described} ${why}; this tool returns PNG, JPEG, GIF and WebP images up to 5 MiB. Read its metadata with ${jiraGet} on "${metaPath}".`,
      );
    };
    if (!IMAGE_TYPES.includes(meta.mimeType ?? '')) refuse('is not an image');
    if (typeof meta.size === 'number' && meta.size > MAX_IMAGE_BYTES) refuse('is larger than 5 MiB');
    const bytes = (await jira.send(ctx, ctx.route, { binary: true, followForeignRedirectWithoutAuth: true })).body as Buffer;
    if (bytes.length > MAX_IMAGE_BYTES) refuse(`is larger than 5 MiB (${bytes.length} bytes came)`);
    const mimeType = sniffImageType(bytes) ?? refuse('does not hold the bytes of a PNG, JPEG, GIF or WebP image');
    return { text: `${described}: shown below as ${mimeType}.`, image: { data: bytes.toString('base64'), mimeType } };
  },
});

interface AttachmentMeta {
  filename?: string;
  mimeType?: string;
  size?: number;
}
