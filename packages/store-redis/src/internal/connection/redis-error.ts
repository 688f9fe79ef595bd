import { AwakenError, type AwakenErrorCode } from '@awaken/contract';

const SCRIPT_ERROR = /AWAKEN (\w+) (.*)$/s;

const SCRIPT_CODES: ReadonlySet<AwakenErrorCode> = new Set<AwakenErrorCode>([
  'not_found',
  'conflict',
  'dedupe_conflict',
  'stale_claim',
  'stale_append',
  'stale_version',
  'validation_failed',
  'invalid_transition',
  'run_busy',
]);

/**
 * Turns a failure of a Redis call into an AwakenError. Our Lua scripts reject with
 * `redis.error_reply('AWAKEN <code> <message>')` before writing anything; those become the named
 * code. Anything else (connection loss, OOM under `noeviction`, a batched item's
 * `AWAKEN store_failure <error>`, ...) is a retryable `store_failure`.
 */
export function toStoreError(error: unknown): AwakenError {
  if (AwakenError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const match = SCRIPT_ERROR.exec(message);
  if (match && SCRIPT_CODES.has(match[1] as AwakenErrorCode)) {
    return new AwakenError(match[1] as AwakenErrorCode, match[2] ?? message);
  }
  // An item of a batched script that failed unexpectedly (see per_item in lua/mailbox/mailbox-prelude.ts).
  if (match?.[1] === 'store_failure') {
    return new AwakenError('store_failure', `redis: ${match[2]}`, { cause: error, retryable: true });
  }
  return new AwakenError('store_failure', `redis: ${message}`, { cause: error, retryable: true });
}
