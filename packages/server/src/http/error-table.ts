import { AwakenError, type AwakenErrorCode } from '@awaken/contract';
import { assertNever } from './internal/assert-never';

/** Error codes the HTTP layer adds to the `AwakenError` codes, for failures that happen before a route runs. */
export type HttpOnlyErrorCode =
  | 'malformed_json'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'too_many_streams'
  | 'forbidden_scope'
  | 'self_approval_forbidden'
  | 'link_invalid'
  | 'link_expired';

/** Every `code` an error response of the HTTP API may carry. */
export type HttpErrorCode = AwakenErrorCode | HttpOnlyErrorCode;

/**
 * The one table from error code to HTTP status. A caller's mistake is always a 4xx; only failures of
 * the server or its stores are 5xx, and their messages never carry a stack trace.
 */
export function httpStatusOf(code: HttpErrorCode): number {
  switch (code) {
    case 'malformed_json':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden_scope':
    case 'self_approval_forbidden':
    case 'link_invalid':
      return 403;
    case 'not_found':
    case 'route_not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'conflict':
    case 'dedupe_conflict':
    case 'decision_rejected':
    case 'ticket_expired':
    case 'invalid_transition':
    case 'stale_claim':
    case 'stale_append':
    case 'stale_version':
    case 'cancelled':
    case 'run_busy':
      return 409;
    case 'link_expired':
      return 410;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'validation_failed':
      return 422;
    case 'too_many_streams':
      return 429;
    case 'model_transient':
    case 'store_failure':
    case 'detached':
      return 503;
    case 'timeout':
      return 504;
    case 'model_permanent':
      return 502;
    case 'invalid_config':
    case 'internal':
      return 500;
    default:
      return assertNever(code);
  }
}

/** The body of every error response: `{ error: { code, message } }` (plus `details` when safe to show). */
export interface HttpErrorBody {
  error: { code: HttpErrorCode; message: string; details?: Record<string, unknown> };
}

/** Builds an error body; 5xx messages of unexpected errors are replaced by a generic one. */
export function errorBody(
  code: HttpErrorCode,
  message: string,
  details?: Record<string, unknown>,
): HttpErrorBody {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** What a client is told of a server-side failure: its kind, never its text (hosts, paths, internals). */
const SERVER_MESSAGES: Partial<Record<HttpErrorCode, string>> = {
  store_failure: 'a store is unavailable; retry later',
  detached: 'the run was handed over to another activation; retry',
  model_transient: 'the model provider is unavailable; retry later',
  model_permanent: 'the model provider refused the request',
  timeout: 'the operation timed out',
};

/**
 * The status and body of anything a route threw. A caller's mistake (4xx) keeps its message and
 * details; a server-side failure (5xx) says only what kind it is; anything that is not an
 * AwakenError becomes `internal` without its text.
 */
export function toHttpError(error: unknown): { status: number; body: HttpErrorBody } {
  if (AwakenError.isInstance(error)) {
    const status = httpStatusOf(error.code);
    if (status < 500) return { status, body: errorBody(error.code, error.message, error.details) };
    return { status, body: errorBody(error.code, SERVER_MESSAGES[error.code] ?? 'internal server error') };
  }
  return { status: 500, body: errorBody('internal', 'internal server error') };
}
