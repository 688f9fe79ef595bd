import { type Message, type ModelExecutor, type Tool, defineTool } from '@awaken/contract';
import { type ScriptedTurn, abortableSleep, createScriptedModel } from '@awaken/testing';
import type { RedisStores } from '@awaken/store-redis';
import { z } from 'zod';
import type { AgentDefinition } from '../src/types';
import { approvalPlugin } from './approval';

type Redis = RedisStores['redis'];

/**
 * The agents of the cross-process tests. Every process (the test and each forked worker) rebuilds
 * them from the key prefix alone: the scripted model answers from the request, and every count the
 * tests assert (tool executions, model calls, model requests) lives in Redis so it survives the
 * processes.
 */
export type ScenarioName = 'approvals' | 'crash' | 'race' | 'once';

/** Redis keys of the counters, under the test's prefix (tool counters per run and call). */
export const testKeys = (prefix: string) => ({
  executions: (runId: string, toolCallId: string) => `${prefix}test:exec:${runId}:${toolCallId}`,
  completions: (runId: string, toolCallId: string) => `${prefix}test:done:${runId}:${toolCallId}`,
  modelCalls: `${prefix}test:model-calls`,
  requests: `${prefix}test:requests`,
  slowStarted: `${prefix}test:slow-started`,
  /** When (ms since the epoch) a `slow` tool body saw its abort signal fire. */
  slowAbortedAt: `${prefix}test:slow-aborted-at`,
});

/** Tool calls of the first assistant turn, per scenario. */
export const SCENARIO_CALLS = {
  approvals: [
    { id: 'call_a', name: 'approve_me', arguments: { target: 'a' } },
    { id: 'call_b', name: 'approve_me', arguments: { target: 'b' } },
    { id: 'call_n', name: 'plain', arguments: { target: 'n' } },
  ],
  crash: [
    { id: 'call_1', name: 'plain', arguments: { target: 'first' } },
    { id: 'call_2', name: 'slow', arguments: { target: 'second' } },
  ],
  race: [{ id: 'call_s', name: 'slow', arguments: { target: 'raced' } }],
  once: [{ id: 'call_p', name: 'pay', arguments: { target: 'invoice-7' } }],
} as const;

/** The model: tool calls after the user message, a final answer once every call has its result. */
function countedModel(redis: Redis, prefix: string, scenario: ScenarioName): ModelExecutor {
  const keys = testKeys(prefix);
  const turnFor = (messages: readonly Message[]): ScriptedTurn =>
    messages.at(-1)?.role === 'user'
      ? { text: 'calling tools', toolCalls: SCENARIO_CALLS[scenario].map((call) => ({ ...call })) }
      : { text: `done after ${messages.filter((message) => message.role === 'tool').length} results` };
  const scripted = createScriptedModel((request) => turnFor(request.messages));
  return {
    modelId: 'scripted-redis',
    async *stream(request) {
      await redis.multi().incr(keys.modelCalls).rpush(keys.requests, JSON.stringify(request.messages)).exec();
      yield* scripted.stream(request);
    },
  };
}

/** A tool that counts each execution in Redis (from inside its body) and returns its arguments. */
function countedTool(
  redis: Redis,
  prefix: string,
  name: string,
  body: (signal: AbortSignal) => Promise<void> = async () => {},
): Tool {
  const keys = testKeys(prefix);
  return defineTool({
    name,
    description: `${name} tool`,
    parameters: z.object({ target: z.string() }),
    async execute(args, context) {
      await redis.incr(keys.executions(context.runId, context.toolCallId));
      await body(context.signal);
      await redis.incr(keys.completions(context.runId, context.toolCallId));
      return { tool: name, args, approval: context.resume?.result ?? null };
    },
  });
}

/**
 * `approvals`: two calls of the approval-gated `approve_me` and one `plain` call, parallel executor.
 * `crash`: `plain` then the approval-gated `slow` (sleeps `slowMs`, setting `slowStarted` first and
 * `slowAbortedAt` when aborted), sequential executor. `race`: the approval-gated `slow` alone.
 * `once`: `pay`, a tool that must never run twice (`idempotent: false`), as slow as `slow`, no approval.
 */
export function scenarioAgent(
  redis: Redis,
  prefix: string,
  scenario: ScenarioName,
  options: { slowMs?: number } = {},
): AgentDefinition {
  const model = countedModel(redis, prefix, scenario);
  const plain = countedTool(redis, prefix, 'plain');
  if (scenario === 'approvals') {
    return {
      id: 'agent',
      model,
      toolExecution: 'parallel',
      tools: [countedTool(redis, prefix, 'approve_me'), plain],
      plugins: [approvalPlugin(['approve_me'])],
    };
  }
  const slow = countedTool(redis, prefix, 'slow', async (signal) => {
    await redis.set(testKeys(prefix).slowStarted, '1');
    signal.addEventListener(
      'abort',
      () => void redis.set(testKeys(prefix).slowAbortedAt, String(Date.now())),
      {
        once: true,
      },
    );
    await abortableSleep(options.slowMs ?? 0, signal);
  });
  if (scenario === 'once') {
    const pay = countedTool(redis, prefix, 'pay', async (signal) => {
      await redis.set(testKeys(prefix).slowStarted, '1');
      await abortableSleep(options.slowMs ?? 0, signal);
    });
    return { id: 'agent', model, tools: [{ ...pay, idempotent: false }] };
  }
  return {
    id: 'agent',
    model,
    toolExecution: 'sequential',
    tools: scenario === 'race' ? [slow] : [plain, slow],
    plugins: [approvalPlugin(['slow'])],
  };
}
