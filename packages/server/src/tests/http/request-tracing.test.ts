import { type Span, type Tracer, type TracerProvider, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

interface Recorded {
  name: string;
  attributes: Record<string, unknown>;
  ended: boolean;
}

const spans: Recorded[] = [];

/** A tracer provider that records spans, standing in for an OpenTelemetry SDK. */
const provider: TracerProvider = {
  getTracer: (): Tracer =>
    ({
      startSpan(name: string, options?: { attributes?: Record<string, unknown> }) {
        const record: Recorded = { name, attributes: { ...options?.attributes }, ended: false };
        spans.push(record);
        const span = {
          isRecording: () => true,
          setAttribute: (key: string, value: unknown) => {
            record.attributes[key] = value;
            return span;
          },
          setAttributes: (attributes: Record<string, unknown>) => {
            Object.assign(record.attributes, attributes);
            return span;
          },
          setStatus: () => span,
          updateName: (next: string) => {
            record.name = next;
            return span;
          },
          end: () => {
            record.ended = true;
          },
        };
        return span as unknown as Span;
      },
    }) as unknown as Tracer,
};

let fx: HttpFixture;
beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  fx = await createHttpFixture();
});
afterAll(async () => {
  await fx.close();
  trace.disable();
});

describe('request spans', () => {
  it('opens a server span per request named by method and route, with status and tenant', async () => {
    await fx.json('/v1/threads', { body: { id: 'traced' } });
    await fx.json('/v1/threads/traced');
    await fx.json('/v1/threads/missing');
    const requests = spans.filter((span) => 'http.request.method' in span.attributes);
    expect(
      requests.map((span) => [span.name, span.attributes['http.response.status_code'], span.ended]),
    ).toEqual([
      ['POST /v1/threads', 201, true],
      ['GET /v1/threads/:threadId', 200, true],
      ['GET /v1/threads/:threadId', 404, true],
    ]);
    expect(requests[0]?.attributes).toMatchObject({ 'http.route': '/v1/threads', 'awaken.tenant': 'acme' });
  });
});
