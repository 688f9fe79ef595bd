/** Failures where retrying the same request later may succeed. */
export const TRANSIENT_KINDS = [
  'rate_limit',
  'overloaded',
  'timeout',
  'network',
  'server_error',
  'invalid_response',
] as const;

/** Failures that the same request will hit again. */
export const PERMANENT_KINDS = [
  'authentication',
  'permission',
  'invalid_request',
  'context_length',
  'content_filter',
  'model_not_found',
  'quota_exceeded',
  'unknown',
] as const;

/** Why a model call failed; found in `AwakenError.details.reason`. */
export type ModelErrorKind = (typeof TRANSIENT_KINDS)[number] | (typeof PERMANENT_KINDS)[number];

const TRANSIENT: ReadonlySet<ModelErrorKind> = new Set(TRANSIENT_KINDS);

export function isTransientKind(kind: ModelErrorKind): boolean {
  return TRANSIENT.has(kind);
}

/** Ordered: the first match wins, so specific causes come before generic words. */
const TEXT_PATTERNS: ReadonlyArray<readonly [RegExp, ModelErrorKind]> = [
  [/insufficient_quota|exceeded your current quota|billing/i, 'quota_exceeded'],
  [
    /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long/i,
    'context_length',
  ],
  [
    /content[_ ]filter|content[_ ]policy|content management policy|flagged by|safety system/i,
    'content_filter',
  ],
  [/overloaded/i, 'overloaded'],
  [/rate[_ ]limit|too many requests/i, 'rate_limit'],
  [/model_not_found|not_found_error|no such model|model\b.*\b(not found|does not exist)/i, 'model_not_found'],
  [/invalid[_ ]api[_ ]key|incorrect api key|authentication|unauthori[sz]ed/i, 'authentication'],
  [/permission_error|forbidden/i, 'permission'],
  [/api_error|server_error|internal server error|service unavailable|bad gateway/i, 'server_error'],
  [/timed? ?out|timeout|ETIMEDOUT/i, 'timeout'],
  [
    /ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EPIPE|UND_ERR|socket hang up|fetch failed|network/i,
    'network',
  ],
  [/invalid_request_error|invalid request/i, 'invalid_request'],
];

/** The kind a provider's message, error type or code names, if any. */
export function kindFromText(text: string): ModelErrorKind | undefined {
  for (const [pattern, kind] of TEXT_PATTERNS) if (pattern.test(text)) return kind;
  return undefined;
}

/**
 * A provider telling the client when to retry. Gemini's per-minute quota 429 says "You exceeded your
 * current quota ... billing" like OpenAI's exhausted billing quota, but adds "Please retry in 37s"
 * and a `RetryInfo` `retryDelay`: that one is a rate limit.
 */
const RETRY_HINT = /retry in\b|retry after\b|retryDelay/i;

/**
 * The kind an HTTP status names. The provider's text refines a 400 (context length, content
 * filter), a 429 (quota exhausted is not a rate limit, unless the provider says when to retry) and
 * a 404.
 */
export function kindFromStatus(status: number, text: string): ModelErrorKind {
  const refined = kindFromText(text);
  if (status === 401) return 'authentication';
  if (status === 403) return refined === 'content_filter' ? 'content_filter' : 'permission';
  if (status === 404) return 'model_not_found';
  if (status === 408) return 'timeout';
  if (status === 413) return 'context_length';
  if (status === 429)
    return refined === 'quota_exceeded' && !RETRY_HINT.test(text) ? 'quota_exceeded' : 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status === 504) return 'timeout';
  if (status >= 500) return 'server_error';
  if (refined === 'context_length' || refined === 'content_filter' || refined === 'model_not_found')
    return refined;
  return 'invalid_request';
}
