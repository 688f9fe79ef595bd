import { defineTool } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTracingPlugin } from './create-tracing-plugin';
import type { OtelApi, OtelSpan } from './load-otel';

interface Recorded {
  name: string;
  parent?: string;
  attributes: Record<string, unknown>;
  ended: boolean;
}

/** A recording stand-in for `@opentelemetry/api`: contexts are the span they carry. */
function recordingApi(): { api: OtelApi; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const api: OtelApi = {
    SpanStatusCode: { OK: 1, ERROR: 2 },
    context: { active: () => undefined },
    trace: {
      setSpan: (_context, span) => span,
      getTracer: () => ({
        startSpan(name, options, context) {
          const record: Recorded = {
            name,
            attributes: { ...options?.attributes },
            ended: false,
            ...(context ? { parent: (context as { record: Recorded }).record.name } : {}),
          };
          spans.push(record);
          const span: OtelSpan & { record: Recorded } = {
            record,
            setAttribute: (key, value) => Object.assign(record.attributes, { [key]: value }),
            setAttributes: (attributes) => Object.assign(record.attributes, attributes),
            setStatus: () => undefined,
            isRecording: () => true,
            updateName: (next) => {
              record.name = next;
            },
            end: () => {
              record.ended = true;
            },
          };
          return span;
        },
      }),
    },
  };
  return { api, spans };
}

describe('tracing plugin', () => {
  it('opens invoke_agent, step, chat and execute_tool spans with GenAI attributes, and ends them all', async () => {
    const { api, spans } = recordingApi();
    const lookup = defineTool({
      name: 'lookup',
      description: 'looks up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => ({ found: q }),
    });
    const model = createScriptedModel([
      {
        toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'x' } }],
        usage: { inputTokens: 7, outputTokens: 3 },
      },
      { text: 'done' },
    ]);
    const stores = createMemoryStores();
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', model, tools: [lookup], plugins: [createTracingPlugin({ api })] }],
      stores,
    });
    await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(spans.map((span) => [span.name, span.parent])).toEqual([
      ['invoke_agent agent', undefined],
      ['step 1', 'invoke_agent agent'],
      ['chat', 'step 1'],
      ['execute_tool lookup', 'step 1'],
      ['step 2', 'invoke_agent agent'],
      ['chat', 'step 2'],
    ]);
    expect(spans.every((span) => span.ended)).toBe(true);
    expect(spans[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': 'agent',
      'awaken.run.status': 'done',
    });
    expect(spans[2]?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(spans[3]?.attributes).toMatchObject({ 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': 'c1' });
  });

  it('does nothing without the OpenTelemetry API', () => {
    expect(createTracingPlugin({ api: null }).hooks).toEqual({});
  });
});
