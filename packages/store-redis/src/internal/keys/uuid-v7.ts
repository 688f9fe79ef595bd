import { randomUUID } from 'node:crypto';

/**
 * A UUID v7 (RFC 9562): 48-bit millisecond timestamp then random bits, so ids sort by creation.
 * The random part comes from `randomUUID` (v4, pooled entropy): its version nibble becomes 7, its
 * variant bits are already RFC 9562's.
 */
export function uuidV7(now: number = Date.now()): string {
  const time = Math.max(0, Math.floor(now)).toString(16).padStart(12, '0').slice(-12);
  // randomUUID: xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx; keep what follows the version nibble.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
