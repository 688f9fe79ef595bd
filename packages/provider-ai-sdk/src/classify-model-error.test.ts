import {
  APICallError,
  InvalidPromptError,
  InvalidResponseDataError,
  LoadAPIKeyError,
  NoSuchModelError,
} from '@ai-sdk/provider';
import { AwakenError } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { classifyModelError } from './classify-model-error';

function apiError(
  statusCode: number | undefined,
  message: string,
  extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {},
) {
  return new APICallError({
    message,
    url: 'https://api.example.com/v1',
    requestBodyValues: {},
    statusCode,
    ...extra,
  });
}

describe('classifyModelError', () => {
  it.each([
    [429, 'Rate limit reached for requests', 'rate_limit'],
    [529, 'Overloaded', 'overloaded'],
    [503, 'Service Unavailable', 'overloaded'],
    [500, 'Internal server error', 'server_error'],
    [502, 'Bad gateway', 'server_error'],
    [408, 'Request timeout', 'timeout'],
    [504, 'Gateway timeout', 'timeout'],
  ])('classifies HTTP %i as transient %s', (status, message, reason) => {
    const error = classifyModelError(apiError(status, message));
    expect(error).toMatchObject({
      code: 'model_transient',
      retryable: true,
      message,
      details: { reason, statusCode: status },
    });
  });

  it.each([
    [401, 'Incorrect API key provided', 'authentication'],
    [403, 'Your organisation is not allowed to use this model', 'permission'],
    [404, 'The model `gpt-9` does not exist', 'model_not_found'],
    [400, "This model's maximum context length is 128000 tokens", 'context_length'],
    [400, 'prompt is too long: 210000 tokens > 200000 maximum', 'context_length'],
    [413, 'Request too large', 'context_length'],
    [
      400,
      "The response was filtered due to the prompt triggering Azure OpenAI's content management policy",
      'content_filter',
    ],
    [400, 'messages.1.content: Input should be a valid list', 'invalid_request'],
    [422, 'Unprocessable', 'invalid_request'],
    [429, 'You exceeded your current quota, please check your plan and billing details', 'quota_exceeded'],
  ])('classifies HTTP %i (%s) as permanent %s', (status, message, reason) => {
    const error = classifyModelError(apiError(status, message));
    expect(error).toMatchObject({ code: 'model_permanent', retryable: false, message, details: { reason } });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('finds the reason in the response body when the message is generic', () => {
    const error = classifyModelError(
      apiError(400, 'Bad Request', { responseBody: '{"error":{"code":"context_length_exceeded"}}' }),
    );
    expect(error.details).toMatchObject({ reason: 'context_length' });
  });

  it('honours Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
    expect(
      classifyModelError(apiError(429, 'slow down', { responseHeaders: { 'retry-after': '7' } }))
        .retryAfterMs,
    ).toBe(7000);
    expect(
      classifyModelError(apiError(529, 'busy', { responseHeaders: { 'Retry-After': '1.5' } })).retryAfterMs,
    ).toBe(1500);
    expect(
      classifyModelError(
        apiError(429, 'slow down', { responseHeaders: { 'retry-after-ms': '250', 'retry-after': '1' } }),
      ).retryAfterMs,
    ).toBe(250);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = classifyModelError(
      apiError(503, 'busy', { responseHeaders: { 'retry-after': inTenSeconds } }),
    ).retryAfterMs;
    expect(fromDate).toBeGreaterThan(8_000);
    expect(fromDate).toBeLessThanOrEqual(10_000);
    expect(
      classifyModelError(apiError(429, 'slow down', { responseHeaders: { 'retry-after': 'soon' } }))
        .retryAfterMs,
    ).toBeUndefined();
  });

  it('ignores a negative Retry-After instead of reading it as a date', () => {
    for (const value of ['-1', '-30']) {
      const error = classifyModelError(
        apiError(429, 'slow down', { responseHeaders: { 'retry-after': value } }),
      );
      expect(error.retryAfterMs).toBeUndefined();
    }
  });

  it('classifies a quota 429 that says when to retry (Gemini per-minute quota) as a transient rate limit', () => {
    const message =
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10\nPlease retry in 37.4s.';
    const responseBody = JSON.stringify({
      error: {
        code: 429,
        message,
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' }],
      },
    });
    const error = classifyModelError(apiError(429, message, { responseBody }));
    expect(error).toMatchObject({
      code: 'model_transient',
      retryable: true,
      details: { reason: 'rate_limit' },
    });
    const withHeader = classifyModelError(
      apiError(429, 'You exceeded your current quota', { responseHeaders: { 'retry-after': '20' } }),
    );
    expect(withHeader).toMatchObject({ code: 'model_transient', retryAfterMs: 20_000 });
  });

  it('classifies a request that got no response as a transient network failure', () => {
    const cause = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const error = classifyModelError(
      apiError(undefined, 'Cannot connect to API: fetch failed', { cause, isRetryable: true }),
    );
    expect(error).toMatchObject({ code: 'model_transient', details: { reason: 'network' } });
  });

  it('classifies timeouts and network errors thrown outside an API call as transient', () => {
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(classifyModelError(timeout)).toMatchObject({
      code: 'model_transient',
      details: { reason: 'timeout' },
    });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(classifyModelError(reset)).toMatchObject({
      code: 'model_transient',
      details: { reason: 'network' },
    });
  });

  it('classifies raw provider error payloads sent in the stream', () => {
    expect(
      classifyModelError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ).toMatchObject({
      code: 'model_transient',
      message: 'Overloaded',
      details: { reason: 'overloaded' },
    });
    expect(
      classifyModelError({ message: 'Rate limit exceeded', type: 'tokens', code: 'rate_limit_exceeded' }),
    ).toMatchObject({
      code: 'model_transient',
      details: { reason: 'rate_limit' },
    });
    expect(classifyModelError({ error: { type: 'api_error', message: 'Internal error' } })).toMatchObject({
      code: 'model_transient',
      details: { reason: 'server_error' },
    });
    expect(
      classifyModelError({ error: { type: 'invalid_request_error', message: 'tools.0.name: invalid' } }),
    ).toMatchObject({ code: 'model_permanent', details: { reason: 'invalid_request' } });
  });

  it('classifies AI SDK setup errors as permanent', () => {
    expect(
      classifyModelError(new NoSuchModelError({ modelId: 'x', modelType: 'languageModel' })),
    ).toMatchObject({
      code: 'model_permanent',
      details: { reason: 'model_not_found' },
    });
    expect(classifyModelError(new LoadAPIKeyError({ message: 'OpenAI API key is missing' }))).toMatchObject({
      code: 'model_permanent',
      message: 'OpenAI API key is missing',
      details: { reason: 'authentication' },
    });
    expect(classifyModelError(new InvalidPromptError({ prompt: [], message: 'bad prompt' }))).toMatchObject({
      code: 'model_permanent',
      details: { reason: 'invalid_request' },
    });
  });

  it('classifies a malformed provider response as transient', () => {
    const error = classifyModelError(new InvalidResponseDataError({ data: {}, message: 'no choices' }));
    expect(error).toMatchObject({ code: 'model_transient', details: { reason: 'invalid_response' } });
  });

  it('classifies an unrecognised error as permanent, keeping it as the cause', () => {
    const original = new Error('something odd');
    const error = classifyModelError(original);
    expect(error).toMatchObject({
      code: 'model_permanent',
      message: 'something odd',
      details: { reason: 'unknown' },
    });
    expect(error.cause).toBe(original);
    expect(classifyModelError('boom').message).toBe('boom');
  });

  it('returns an AwakenError unchanged', () => {
    const original = new AwakenError('model_transient', 'already classified', { retryable: true });
    expect(classifyModelError(original)).toBe(original);
  });

  it('never puts the cause or a stack in the JSON form', () => {
    const json = classifyModelError(apiError(500, 'boom')).toJSON();
    expect(json).toEqual({
      name: 'AwakenError',
      code: 'model_transient',
      message: 'boom',
      details: { reason: 'server_error', statusCode: 500 },
      retryable: true,
    });
  });
});
