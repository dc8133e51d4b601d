/** The image types jira_get_attachment returns, by the bytes that open each format. */
const SIGNATURES: ReadonlyArray<{ mimeType: string; matches(bytes: Buffer): boolean }> = [
  { mimeType: 'image/png', matches: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')) },
  { mimeType: 'image/jpeg', matches: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimeType: 'image/gif', matches: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { mimeType: 'image/webp', matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

export const IMAGE_TYPES: readonly string[] = SIGNATURES.map((s) => s.mimeType);

/**
 * The image type the bytes really are (PNG, JPEG, GIF or WebP), or undefined. The declared type is not
 * trusted: a model would be handed bytes its client cannot decode, or that are not an image at all.
 */
export function sniffImageType(bytes: Buffer): string | undefined {
  return SIGNATURES.find((s) => s.matches(bytes))?.mimeType;
}
