import { nodeCrypto } from '../../../../core/node-crypto.js';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp is signed with the body. */
export const SIGNATURE_HEADER = 'mcp-devtools-signature';
export const EVENT_HEADER = 'mcp-devtools-event';
export const EVENT_ID_HEADER = 'mcp-devtools-event-id';

/**
 * The signature header of one delivery attempt. The timestamp is part of what is signed, so a receiver that
 * refuses old timestamps (five minutes) and event ids it has already seen within them refuses a replay: a
 * captured request cannot be sent again later, nor with another timestamp.
 */
export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  const mac = nodeCrypto().createHmac('sha256', secret).update(`${timestampSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}
