import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying a delivery's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'awaken-signature';
/** The header carrying a delivery's id: the same on every retry of one notification. */
export const DELIVERY_ID_HEADER = 'awaken-delivery-id';
/** The header naming the event (`approval.requested`, ...). */
export const EVENT_HEADER = 'awaken-event';
/** How far a signature's timestamp may be from the receiver's clock by default: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The `Awaken-Signature` value of `body` sent at `timestamp` (unix seconds): HMAC-SHA256 with the
 * endpoint's secret over `<timestamp>.<body>` (the raw body bytes as sent), hex.
 */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/**
 * The receiver's check: true only when `header` holds a `v1` signature of exactly `body` with
 * `secret` (compared in constant time) and its `t` is within `toleranceSeconds` of `now` (unix
 * seconds), so a captured delivery cannot be replayed later. Several `v1=` entries (a secret being
 * rotated) pass when one matches.
 */
export function verifyWebhook(input: {
  secret: string;
  body: string;
  header: string | null | undefined;
  now?: number;
  toleranceSeconds?: number;
}): boolean {
  const parts = (input.header ?? '').split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isSafeInteger(timestamp)) return false;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(hmacHex(input.secret, timestamp, input.body), 'utf8');
  return parts
    .filter(([key]) => key === 'v1')
    .some(([, value]) => {
      const given = Buffer.from(value ?? '', 'utf8');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
