import { createRequire } from 'node:module';

/** The part of `@opentelemetry/api` the server uses. */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): OtelTracer;
    setSpan(context: unknown, span: OtelSpan): unknown;
  };
  context: { active(): unknown };
  SpanStatusCode: { ERROR: number; OK: number };
}

export interface OtelTracer {
  startSpan(
    name: string,
    options?: { attributes?: Record<string, unknown>; kind?: number },
    context?: unknown,
  ): OtelSpan;
}

export interface OtelSpan {
  setAttribute(key: string, value: unknown): unknown;
  setAttributes(attributes: Record<string, unknown>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  updateName(name: string): unknown;
  isRecording(): boolean;
  end(): void;
}

let loaded: OtelApi | null | undefined;

/**
 * `@opentelemetry/api` when it is installed (an optional peer dependency), else null. The API is a
 * no-op until an SDK registers a tracer provider, so spans cost nothing without one.
 */
export function loadOtel(): OtelApi | null {
  if (loaded !== undefined) return loaded;
  try {
    loaded = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
  } catch {
    loaded = null;
  }
  return loaded;
}
