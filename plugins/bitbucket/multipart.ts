import { nodeCrypto } from '../../core/node-crypto.js';

export interface FilePart {
  /** The form field (Bitbucket Downloads reads `files`). */
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * A multipart/form-data body (RFC 7578) of file parts, and its Content-Type with the boundary. File names are
 * sent as UTF-8 in the quoted filename; they were checked to hold no quote, backslash or line break.
 */
export function multipartBody(parts: readonly FilePart[]): { contentType: string; bytes: Buffer } {
  const boundary = `----mcp-devtools-${nodeCrypto().randomBytes(12).toString('hex')}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
        'utf8',
      ),
      part.bytes,
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(pieces) };
}
