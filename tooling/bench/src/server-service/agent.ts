import { type InferenceStreamPart, type ModelExecutor, type Plugin, defineTool } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';
import { z } from 'zod';

/**
 * The benchmark agent: input `approve` → one call of `approve_me`, suspended until a decision;
 * `plain` → one call of `plain`; after the tool result the model answers. Both tools are no-ops.
 */
export const AGENT_ID = 'bench';

const approval: Plugin = {
  id: 'approval',
  hooks: {
    toolGate: (context) =>
      context.call.name !== 'approve_me' || context.resume
        ? undefined
        : { type: 'suspend', suspension: { id: `t_${context.call.id}`, action: 'approve', message: 'ok?' } },
  },
};

const noop = (name: string) =>
  defineTool({ name, description: name, parameters: z.object({}), execute: () => ({ ok: true }) });

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/** A scripted model that keeps nothing between calls (the testing one records every request). */
const model: ModelExecutor = {
  modelId: 'bench',
  async *stream(request): AsyncGenerator<InferenceStreamPart> {
    const last = request.messages.at(-1);
    if (last?.role !== 'user') {
      yield { type: 'text_delta', delta: 'done' };
      yield { type: 'finish', finishReason: 'stop', usage };
      return;
    }
    const toolName = last.content.startsWith('approve') ? 'approve_me' : 'plain';
    yield { type: 'tool_call_start', toolCallId: 'call_1', toolName };
    yield { type: 'tool_call', toolCallId: 'call_1', toolName, input: '{}' };
    yield { type: 'finish', finishReason: 'tool-calls', usage };
  },
};

export function benchAgent(): AgentDefinition {
  return { id: AGENT_ID, model, tools: [noop('approve_me'), noop('plain')], plugins: [approval] };
}
