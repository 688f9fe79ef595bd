import {
  APICallError,
  EmptyResponseBodyError,
  InvalidArgumentError,
  InvalidPromptError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  NoSuchModelError,
  TypeValidationError,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import { AwakenError } from '@awaken/contract';
import {
  isTransientKind,
  kindFromStatus,
  kindFromText,
  type ModelErrorKind,
} from './internal/model-error-kind';
import { retryAfterMsFrom } from './internal/retry-after';

interface Diagnosis {
  kind: ModelErrorKind;
  message: string;
  statusCode?: number;
  retryAfterMs?: number;
}

/**
 * Turns anything a language model call threw (or sent as a stream `error` part) into an
 * `AwakenError` the mailbox can act on:
 *
 * - `model_transient`, `retryable: true` — rate limit (429), overload (503, 529, "overloaded"),
 *   timeouts (408, 504, timeout errors), network failures (no response, connection reset, DNS), other
 *   5xx and malformed responses; `retryAfterMs` from `retry-after-ms` / `retry-after` when sent;
 * - `model_permanent`, `retryable: false` — authentication (401, missing key), permission (403),
 *   model not found (404), context length (413, or a 400 saying so), content filter, exhausted quota
 *   (a 429 saying `insufficient_quota` with no retry hint), any other invalid request, and anything
 *   unrecognised.
 *
 * The message is the provider's own; `details.reason` names the kind (see {@link ModelErrorKind})
 * and `details.statusCode` the HTTP status when there was one; the original error is the `cause`.
 * An `AwakenError` is returned unchanged.
 */
export function classifyModelError(error: unknown): AwakenError {
  if (AwakenError.isInstance(error)) return error;
  const diagnosis = diagnose(error);
  const transient = isTransientKind(diagnosis.kind);
  const details: Record<string, unknown> = { reason: diagnosis.kind };
  if (diagnosis.statusCode !== undefined) details.statusCode = diagnosis.statusCode;
  return new AwakenError(transient ? 'model_transient' : 'model_permanent', diagnosis.message, {
    cause: error,
    details,
    retryable: transient,
    ...(transient && diagnosis.retryAfterMs !== undefined ? { retryAfterMs: diagnosis.retryAfterMs } : {}),
  });
}

function diagnose(error: unknown): Diagnosis {
  if (APICallError.isInstance(error)) return diagnoseApiCall(error);
  const message = messageOf(error);
  if (NoSuchModelError.isInstance(error)) return { kind: 'model_not_found', message };
  if (LoadAPIKeyError.isInstance(error)) return { kind: 'authentication', message };
  if (
    InvalidPromptError.isInstance(error) ||
    InvalidArgumentError.isInstance(error) ||
    UnsupportedFunctionalityError.isInstance(error)
  ) {
    return { kind: 'invalid_request', message };
  }
  if (
    EmptyResponseBodyError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error)
  ) {
    return { kind: 'invalid_response', message };
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    // Our own signal's abort never gets here: the executor rethrows its reason first.
    return { kind: 'timeout', message };
  }
  return { kind: kindFromText(searchableText(error)) ?? 'unknown', message };
}

function diagnoseApiCall(error: APICallError): Diagnosis {
  const text = [error.message, error.responseBody ?? '', safeStringify(error.data)].join('\n');
  const base = { message: error.message, retryAfterMs: retryAfterMsFrom(error.responseHeaders) };
  if (error.statusCode !== undefined) {
    // A Retry-After header on a quota 429 means the quota refills: a rate limit, not exhausted billing.
    const kind = kindFromStatus(error.statusCode, text);
    const refined = kind === 'quota_exceeded' && base.retryAfterMs !== undefined ? 'rate_limit' : kind;
    return { ...base, kind: refined, statusCode: error.statusCode };
  }
  // No response at all: the request never completed.
  const kind = kindFromText(`${text}\n${searchableText(error.cause)}`);
  return { ...base, kind: kind ?? (error.isRetryable ? 'network' : 'unknown') };
}

/** The message, type and code of an error, its causes, or a raw provider error payload. */
function searchableText(value: unknown, depth = 0): string {
  if (depth > 4 || value === undefined || value === null) return '';
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  const own = ['name', 'message', 'type', 'code', 'status']
    .map((key) => record[key])
    .filter((field) => typeof field === 'string' || typeof field === 'number');
  return [
    ...own.map(String),
    searchableText(record.error, depth + 1),
    searchableText(record.cause, depth + 1),
  ].join('\n');
}

function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.message === 'string') return record.message;
    const nested = record.error;
    if (
      typeof nested === 'object' &&
      nested !== null &&
      typeof (nested as Record<string, unknown>).message === 'string'
    ) {
      return (nested as Record<string, unknown>).message as string;
    }
  }
  return safeStringify(value) || 'unknown model error';
}

function safeStringify(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
