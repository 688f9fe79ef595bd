import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's replay window: a request whose timestamp is further than this from now is refused. */
export const SLACK_TOLERANCE_SECONDS = 300;

/** `v0=<hex HMAC-SHA256 of v0:<timestamp>:<body>>` with the Slack app's signing secret. */
export function signSlackRequest(signingSecret: string, body: string, timestamp: number): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/**
 * Slack's request check (api.slack.com/authentication/verifying-requests-from-slack): the
 * `X-Slack-Signature` must be the v0 signature of `v0:<X-Slack-Request-Timestamp>:<raw body>`,
 * compared in constant time, and the timestamp within five minutes of `now` (unix seconds).
 */
export function verifySlackRequest(input: {
  signingSecret: string;
  body: string;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  now?: number;
}): boolean {
  const timestamp = /^\d{1,12}$/.test(input.timestamp ?? '') ? Number(input.timestamp) : Number.NaN;
  if (!Number.isFinite(timestamp)) return false;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > SLACK_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signSlackRequest(input.signingSecret, input.body, timestamp), 'utf8');
  const given = Buffer.from(input.signature ?? '', 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
