const AWAKEN_ERROR_MARKER = Symbol.for('awaken.error');

/**
 * Every error code an Awaken package may raise. The server maps each code to one HTTP status in a
 * single table; clients may switch on it. Codes are stable across minor versions.
 *
 * `run_busy`: another activation holds the run's lease; nothing was done (retry after
 * `retryAfterMs`, or send the decision / cancel through the run-control inbox). `detached`: an
 * activation stopped without ending its run (detach, shutdown, or its lease was taken over); the run
 * is continued by the next `resumeRun`, in any process.
 */
export type AwakenErrorCode =
  | 'invalid_transition'
  | 'validation_failed'
  | 'invalid_config'
  | 'not_found'
  | 'conflict'
  | 'dedupe_conflict'
  | 'stale_claim'
  | 'stale_append'
  | 'stale_version'
  | 'decision_rejected'
  /** A decision for a ticket whose `expiresAt` passed: never applied. */
  | 'ticket_expired'
  | 'run_busy'
  | 'detached'
  | 'model_transient'
  | 'model_permanent'
  | 'store_failure'
  | 'cancelled'
  | 'timeout'
  | 'unauthorized'
  | 'internal';

/** Options accepted by {@link AwakenError}. */
export interface AwakenErrorOptions {
  cause?: unknown;
  /** Structured details safe to show to a client (field paths, ids). Never a stack trace. */
  details?: Record<string, unknown>;
  /** True when retrying the same operation later may succeed (rate limits, overload, network). */
  retryable?: boolean;
  /** Provider- or store-suggested delay before a retry, in milliseconds. */
  retryAfterMs?: number;
}

/** The JSON shape of an {@link AwakenError}, as sent over HTTP. */
export interface AwakenErrorJson {
  name: string;
  code: AwakenErrorCode;
  message: string;
  details?: Record<string, unknown>;
  retryable: boolean;
  retryAfterMs?: number;
}

/**
 * Base class of every error an Awaken package throws on purpose.
 *
 * Guarantees: `AwakenError.isInstance(error)` is true for any instance, even one created by a second
 * copy of this package (the check uses a global symbol, not `instanceof`); `toJSON()` never includes a
 * stack trace or the cause.
 */
export class AwakenError extends Error {
  readonly [AWAKEN_ERROR_MARKER] = true;
  readonly code: AwakenErrorCode;
  readonly details?: Record<string, unknown>;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(code: AwakenErrorCode, message: string, options: AwakenErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AwakenError';
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** True when `value` is an AwakenError from any copy of this package. */
  static isInstance(value: unknown): value is AwakenError {
    return typeof value === 'object' && value !== null && AWAKEN_ERROR_MARKER in value;
  }

  /** True when `value` is an AwakenError with the given code. */
  static hasCode(value: unknown, code: AwakenErrorCode): value is AwakenError {
    return AwakenError.isInstance(value) && value.code === code;
  }

  toJSON(): AwakenErrorJson {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
      retryable: this.retryable,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}

/**
 * Turns anything caught into an AwakenError: an AwakenError is returned as is, anything else becomes
 * `internal` (or the given fallback code) with the original kept as `cause`.
 */
export function toAwakenError(value: unknown, fallbackCode: AwakenErrorCode = 'internal'): AwakenError {
  if (AwakenError.isInstance(value)) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new AwakenError(fallbackCode, message, { cause: value });
}
