import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { ToolError } from '../../core/errors/tool-error.js';
import type { Principal } from '../../core/identity/principal.js';
import type { UploadArgs } from './upload-args.js';

export interface UploadLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

/** One file, decoded and checked, ready to encode. */
export interface UploadFile {
  name: string;
  mimeType: string;
  bytes: Buffer;
}

const refuse = (why: string): never => {
  throw new ToolError('upload_refused', `Upload refused, nothing was sent: ${why}.`);
};

/**
 * The files of a bb_upload call, decoded from base64 or read from the caller's own artifacts, every limit and
 * name checked before a byte leaves the server. A refusal names the file and what to change.
 */
export async function prepareUpload(files: UploadArgs['files'], owner: Principal, artifacts: ArtifactStore, limits: UploadLimits): Promise<UploadFile[]> {
  const seen = new Set<string>();
  const prepared: UploadFile[] = [];
  let total = 0;
  for (const file of files) {
    const name = checkedName(file.name);
    if (seen.has(name.toLowerCase())) refuse(`${JSON.stringify(name)} appears more than once (names are compared without case)`);
    seen.add(name.toLowerCase());
    if ((file.content === undefined) === (file.artifactId === undefined))
      refuse(`${JSON.stringify(name)} needs exactly one of content (base64) and artifactId`);
    const { bytes, mimeType } =
      file.content !== undefined
        ? { bytes: decodeBase64(name, file.content, limits.maxFileBytes), mimeType: undefined }
        : await readArtifact(name, file.artifactId!, owner, artifacts, limits.maxFileBytes);
    if (bytes.length === 0) refuse(`${JSON.stringify(name)} is empty`);
    total += bytes.length;
    if (total > limits.maxTotalBytes) refuse(`the files add up to more than UPLOAD_MAX_TOTAL_BYTES (${limits.maxTotalBytes} bytes)`);
    prepared.push({ name, mimeType: checkedType(name, file.mimeType) ?? mimeType ?? 'application/octet-stream', bytes });
  }
  return prepared;
}

/** One safe file name: a single path segment a download can be saved under on any system. */
function checkedName(name: string): string {
  if (name === '.' || name === '..' || name.trim() !== name)
    refuse(`the name ${JSON.stringify(name)} is not a file name (no leading or trailing spaces, not . or ..)`);
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(name))
    refuse(`the name ${JSON.stringify(name)} is not well-formed text (a lone surrogate)`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name may not hold
  if (/[/\\:*?"<>|\u0000-\u001f\u007f]/.test(name))
    refuse(`the name ${JSON.stringify(name)} holds a character file names cannot (/ \\ : * ? " < > | or a control character)`);
  return name;
}

function checkedType(name: string, mimeType: string | undefined): string | undefined {
  if (mimeType === undefined) return undefined;
  const type = mimeType.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type))
    refuse(`the mimeType ${JSON.stringify(mimeType)} of ${JSON.stringify(name)} is not a type/subtype media type`);
  return type;
}

/** Standard base64, line breaks allowed, padding optional; the size is checked before decoding. */
function decodeBase64(name: string, content: string, maxFileBytes: number): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (compact.startsWith('data:')) refuse(`the content of ${JSON.stringify(name)} is a data: URL; give the base64 alone`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) refuse(`the content of ${JSON.stringify(name)} is not base64`);
  if (Math.floor((compact.length * 3) / 4) - 2 > maxFileBytes) tooLarge(name, maxFileBytes);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxFileBytes) tooLarge(name, maxFileBytes);
  return bytes;
}

/** The whole of one of the caller's artifacts; another principal's is "not found", as everywhere. */
async function readArtifact(
  name: string,
  artifactId: string,
  owner: Principal,
  artifacts: ArtifactStore,
  maxFileBytes: number,
): Promise<{ bytes: Buffer; mimeType: string }> {
  const parts: Buffer[] = [];
  let mimeType = '';
  for (let offset = 0, eof = false; !eof;) {
    const chunk = await artifacts.read(owner, artifactId, offset, Number.MAX_SAFE_INTEGER);
    if (chunk.bytes > maxFileBytes) tooLarge(name, maxFileBytes);
    parts.push(Buffer.from(chunk.data, 'base64'));
    ({ mimeType, nextOffset: offset, eof } = chunk);
  }
  return { bytes: Buffer.concat(parts), mimeType: mimeType.split(';')[0]!.trim() };
}

function tooLarge(name: string, maxFileBytes: number): never {
  return refuse(`${JSON.stringify(name)} is larger than UPLOAD_MAX_FILE_BYTES (${maxFileBytes} bytes)`);
}
