import type { Plugin } from '@awaken/contract';
import { type OtelApi, type OtelSpan, loadOtel } from './load-otel';

interface RunSpans {
  run: OtelSpan;
  runContext: unknown;
  step?: OtelSpan;
  stepContext?: unknown;
  inference?: OtelSpan;
  tools: Map<string, OtelSpan>;
}

/** Most runs whose spans are open at once in this process; the oldest are ended beyond it. */
const MAX_OPEN_RUNS = 10_000;

function endAll(spans: RunSpans): void {
  for (const span of spans.tools.values()) span.end();
  spans.inference?.end();
  spans.step?.end();
  spans.run.end();
}

/**
 * OpenTelemetry spans for runs, following the GenAI semantic conventions: `invoke_agent <agent>` per
 * activation, `step <n>` per step, `chat <model>` per inference (token usage and finish reason) and
 * `execute_tool <tool>` per executed tool call. Uses `@opentelemetry/api` when installed (an optional
 * peer); without it, or without an SDK, the hooks do nothing.
 */
export function createTracingPlugin(options: { tracerName?: string; api?: OtelApi | null } = {}): Plugin {
  const api = options.api === undefined ? loadOtel() : options.api;
  if (!api) return { id: 'tracing', hooks: {} };
  const tracer = api.trace.getTracer(options.tracerName ?? '@awaken/server');
  const open = new Map<string, RunSpans>();
  const child = (name: string, parent: unknown, attributes: Record<string, unknown>) =>
    tracer.startSpan(name, { attributes }, parent);

  return {
    id: 'tracing',
    hooks: {
      runStart(context) {
        const previous = open.get(context.runId);
        if (previous) endAll(previous);
        const run = tracer.startSpan(
          `invoke_agent ${context.agentId}`,
          {
            attributes: {
              'gen_ai.operation.name': 'invoke_agent',
              'gen_ai.agent.id': context.agentId,
              'gen_ai.conversation.id': context.threadId,
              'awaken.run.id': context.runId,
              'awaken.run.resumed': context.resumed,
            },
          },
          api.context.active(),
        );
        open.set(context.runId, {
          run,
          runContext: api.trace.setSpan(api.context.active(), run),
          tools: new Map(),
        });
        if (open.size > MAX_OPEN_RUNS) {
          const [oldest] = open.keys();
          if (oldest !== undefined) {
            const spans = open.get(oldest);
            if (spans) endAll(spans);
            open.delete(oldest);
          }
        }
      },
      stepStart(context) {
        const spans = open.get(context.runId);
        if (!spans) return;
        spans.step?.end();
        spans.step = child(`step ${context.step}`, spans.runContext, { 'awaken.step': context.step });
        spans.stepContext = api.trace.setSpan(spans.runContext, spans.step);
      },
      beforeInference(context) {
        const spans = open.get(context.runId);
        if (!spans) return;
        spans.inference?.end();
        spans.inference = child('chat', spans.stepContext ?? spans.runContext, {
          'gen_ai.operation.name': 'chat',
          'awaken.step': context.step,
        });
      },
      afterInference(context) {
        const spans = open.get(context.runId);
        if (!spans?.inference) return;
        const { usage, finishReason, toolCalls } = context.response;
        spans.inference.setAttributes({
          'gen_ai.usage.input_tokens': usage.inputTokens,
          'gen_ai.usage.output_tokens': usage.outputTokens,
          'gen_ai.response.finish_reasons': [finishReason],
          'awaken.tool_calls': toolCalls.length,
        });
        spans.inference.end();
        spans.inference = undefined;
      },
      beforeToolExecute(context) {
        const spans = open.get(context.runId);
        if (!spans) return;
        spans.tools.set(
          context.call.id,
          child(`execute_tool ${context.call.name}`, spans.stepContext ?? spans.runContext, {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': context.call.name,
            'gen_ai.tool.call.id': context.call.id,
          }),
        );
      },
      afterToolExecute(context) {
        const spans = open.get(context.runId);
        const span = spans?.tools.get(context.call.id);
        if (!span) return;
        span.setAttribute('awaken.tool.status', context.status);
        if (context.result.status === 'error')
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: context.result.message });
        span.end();
        spans?.tools.delete(context.call.id);
      },
      stepEnd(context) {
        const spans = open.get(context.runId);
        spans?.step?.end();
        if (spans) {
          spans.step = undefined;
          spans.stepContext = undefined;
        }
      },
      runEnd(context) {
        const spans = open.get(context.runId);
        if (!spans) return;
        spans.run.setAttributes({
          'awaken.run.status': context.status,
          'awaken.run.termination': context.termination.type,
        });
        if (context.termination.type === 'error') spans.run.setStatus({ code: api.SpanStatusCode.ERROR });
        endAll(spans);
        open.delete(context.runId);
      },
    },
  };
}
