import { AwakenError, type Message, type Plugin, type Tool, defineTool } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';
import { type ScriptedTurn, abortableSleep, createScriptedModel } from '@awaken/testing';
import { z } from 'zod';
import type { Counters } from './counters';

/**
 * The agent every service test runs, in the test process and in worker processes alike. Its
 * script is the run's input, words separated by spaces:
 * - `approve:N` — N calls of `approve_me`, each suspended until a decision;
 * - `plain` — one call of `plain`; `slow:MS` — one call of `slow`, which sleeps MS ms;
 * - `transient:K[:AFTER]` — the model fails with a retryable error (retry after AFTER ms) K times;
 * - `permanent` — the model fails with a permanent error;
 * - anything else (e.g. `#id`, which makes the input unique) is ignored.
 * Without tool words the model answers at once. After the tool results it answers
 * `done after N results`. Counters: `exec:<run>:<call>` / `done:<run>:<call>` per tool body,
 * `model:<input>` per model call, `slow-started:<run>`.
 */
export const AGENT_ID = 'ops';

function words(messages: readonly Message[]): { input: string; words: string[] } {
  const input = [...messages].reverse().find((message) => message.role === 'user');
  const text = typeof input?.content === 'string' ? input.content : JSON.stringify(input?.content ?? '');
  return { input: text, words: text.split(/\s+/) };
}

function toolTurn(script: string[]): ScriptedTurn {
  const toolCalls: NonNullable<ScriptedTurn['toolCalls']> = [];
  for (const word of script) {
    const [kind, value] = word.split(':');
    if (kind === 'approve') {
      for (let index = 0; index < Number(value); index += 1) {
        toolCalls.push({ id: `approve_${index}`, name: 'approve_me', arguments: { index } });
      }
    } else if (kind === 'plain') {
      toolCalls.push({ id: 'plain_0', name: 'plain', arguments: { index: 0 } });
    } else if (kind === 'slow') {
      toolCalls.push({ id: 'slow_0', name: 'slow', arguments: { index: 0, ms: Number(value) } });
    }
  }
  return toolCalls.length > 0 ? { text: 'calling tools', toolCalls } : { text: 'answered at once' };
}

async function failure(counters: Counters, input: string, script: string[]): Promise<Error | undefined> {
  for (const word of script) {
    const [kind, times, after] = word.split(':');
    if (kind === 'permanent') return new AwakenError('model_permanent', 'the model refuses this input');
    if (kind === 'transient' && (await counters.incr(`transient:${input}`)) <= Number(times)) {
      return new AwakenError('model_transient', 'the model is overloaded', {
        retryable: true,
        ...(after === undefined ? {} : { retryAfterMs: Number(after) }),
      });
    }
  }
  return undefined;
}

function scriptModel(counters: Counters) {
  const scripted = createScriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role !== 'user') {
      const results = request.messages.filter((message) => message.role === 'tool').length;
      return { text: `done after ${results} results` };
    }
    return toolTurn(words(request.messages).words);
  });
  return {
    modelId: 'service-scenario',
    async *stream(request: Parameters<typeof scripted.stream>[0]) {
      const { input, words: script } = words(request.messages);
      await counters.incr(`model:${input}`);
      if (request.messages.at(-1)?.role === 'user') {
        const error = await failure(counters, input, script);
        if (error) throw error;
      }
      yield* scripted.stream(request);
    },
  };
}

function countedTool(
  counters: Counters,
  name: string,
  body?: (ms: number, signal: AbortSignal, runId: string) => Promise<void>,
): Tool {
  return defineTool({
    name,
    description: `${name} tool`,
    parameters: z.object({ index: z.number(), ms: z.number().optional() }),
    async execute(args, context) {
      await counters.incr(`exec:${context.runId}:${context.toolCallId}`);
      await body?.(args.ms ?? 0, context.signal, context.runId);
      await counters.incr(`done:${context.runId}:${context.toolCallId}`);
      return { tool: name, index: args.index, approval: context.resume?.result ?? null };
    },
  });
}

const approval: Plugin = {
  id: 'approval',
  hooks: {
    toolGate(context) {
      if (context.call.name !== 'approve_me' || context.resume) return undefined;
      return {
        type: 'suspend',
        suspension: {
          id: `ticket_${context.call.id}`,
          action: 'approve',
          message: `run approve_me ${JSON.stringify(context.call.arguments)}?`,
          parameters: context.call.arguments,
        },
      };
    },
  },
};

export function scenarioAgent(counters: Counters): AgentDefinition {
  return {
    id: AGENT_ID,
    model: scriptModel(counters),
    toolExecution: 'parallel',
    plugins: [approval],
    tools: [
      countedTool(counters, 'approve_me'),
      countedTool(counters, 'plain'),
      countedTool(counters, 'slow', async (ms, signal, runId) => {
        await counters.incr(`slow-started:${runId}`);
        await abortableSleep(ms, signal);
      }),
    ],
  };
}
