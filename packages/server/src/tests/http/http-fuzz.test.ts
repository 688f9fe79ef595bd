import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
let known: { runId: string; threadId: string };
beforeAll(async () => {
  fx = await createHttpFixture({ bodyLimitBytes: 64 * 1024 });
  known = await startRun(fx, { input: 'approve:1' });
});
afterAll(() => fx.close());

const oddId = fc.oneof(
  fc.string({ minLength: 0, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('..', '.', '%00', '%', '\u0000', 'a/b', ' ', '😀', 'x'.repeat(300), '-1', 'null', '[]'),
);

const huge = fc.integer({ min: 1, max: 3 }).map((n) => 'x'.repeat(n * 40_000));

/** Bodies that are malformed JSON, the wrong JSON types, or near-valid objects with wrong fields. */
const body = fc.oneof(
  fc.string({ maxLength: 200 }).map((raw) => ({ raw })),
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ raw: JSON.stringify(value) ?? 'null' })),
  fc
    .record(
      {
        agentId: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        input: fc.oneof(fc.string(), fc.array(fc.jsonValue()), huge, fc.boolean()),
        toolCallId: fc.oneof(oddId, fc.integer()),
        decisions: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.string()),
        action: fc.oneof(fc.string(), fc.constant('resume')),
        mode: fc.string(),
        olderThan: fc.oneof(fc.double(), fc.string(), fc.integer({ min: -10, max: 10 })),
        stream: fc.jsonValue(),
        metadata: fc.jsonValue({ maxDepth: 3 }),
        reason: fc.oneof(fc.string(), fc.integer(), huge),
        priority: fc.oneof(fc.integer(), fc.double()),
      },
      { requiredKeys: [] },
    )
    .map((value) => ({ raw: JSON.stringify(value) })),
  huge.map((raw) => ({ raw: `{"input":"${raw}"}` })),
);

const routes = (id: string) => {
  const e = encodeURIComponent(id);
  return [
    ['POST', '/v1/threads'],
    ['POST', '/v1/runs'],
    ['POST', '/v1/mailbox/submit'],
    ['POST', '/v1/mailbox/purge'],
    ['POST', `/v1/runs/${e}/decision`],
    ['POST', `/v1/runs/${e}/decisions`],
    ['POST', `/v1/runs/${e}/cancel`],
    ['POST', `/v1/threads/${e}/decision`],
    ['POST', `/v1/threads/${e}/decisions`],
    ['POST', `/v1/threads/${e}/interrupt`],
    ['POST', `/v1/threads/${e}/inject`],
    ['POST', `/v1/mailbox/dead-letters/${e}/requeue`],
    ['POST', `/v1/runs/${known.runId}/decision`],
    ['POST', `/v1/runs/${known.runId}/decisions`],
    ['POST', `/v1/threads/${known.threadId}/inject`],
    ['GET', `/v1/threads/${e}`],
    ['DELETE', `/v1/threads/${e}`],
    ['GET', `/v1/threads/${e}/messages?after=${e}&limit=${e}`],
    ['GET', `/v1/threads/${e}/runs?status=${e}`],
    ['GET', `/v1/threads/${e}/active-run`],
    ['GET', `/v1/threads/${e}/dispatches?status=${e}`],
    ['GET', `/v1/runs/${e}`],
    ['GET', `/v1/runs/${e}/events?after=${e}`],
    ['GET', `/v1/mailbox/dispatches/${e}`],
    ['GET', `/v1/mailbox/dead-letters?threadId=${e}&cursor=${e}&limit=${e}`],
    ['GET', `/v1/threads?cursor=${e}&limit=${e}`],
  ] as const;
};

describe('fuzzing every JSON route', () => {
  it('malformed bodies, wrong types, huge strings and odd ids get a 4xx error body (or a 2xx), never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(oddId, body, fc.nat(), async (id, payload, pick) => {
        const list = routes(id);
        const [method, path] = list[pick % list.length] ?? list[0];
        const response = await fx.call(path, method === 'POST' ? { method, raw: payload.raw } : { method });
        const text = await response.text();
        expect(response.status, `${method} ${path} → ${response.status} ${text.slice(0, 200)}`).toBeLessThan(
          500,
        );
        if (response.status >= 400) {
          const parsed = JSON.parse(text);
          expect(parsed.error.code).toEqual(expect.any(String));
          expect(parsed.error.message).toEqual(expect.any(String));
          expect(text).not.toMatch(/\n\s+at /);
        }
      }),
      { numRuns: 600 },
    );
    expect((await fx.call('/health')).status).toBe(200);
    expect((await fx.json(`/v1/runs/${known.runId}`)).body.status).toBe('waiting');
  });
});
